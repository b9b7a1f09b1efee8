import { html, type Markup } from './html.ts'
import { SHARE_CARD_SIZE } from '../../../core/ports/share-card-renderer.ts'
import type { ShareView } from '../../../core/verification/share-view.ts'

const DESCRIPTION_LIMIT = 200

/**
 * Open Graph and Twitter card tags, for the preview a link gets where it is shared. They name the
 * achievement, the recipient and the club; never the recipient's e-mail (the view has none). The verdict
 * is left out: previews are cached by the sites that show them, the page itself is live. With a share
 * card (docs/share-card.md), its absolute URL, size and a text alternative, and X's large-image card;
 * without one, X's plain summary.
 */
export function socialMeta(view: ShareView): Markup {
  const title = socialTitle(view)
  const description = socialDescription(view)
  return html`<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${view.urls.share}">
<meta property="og:site_name" content="${view.club.name}">
<meta property="og:locale" content="ko_KR">
${view.urls.card ? cardMeta(view.urls.card, shareCardAlt(view)) : html`<meta name="twitter:card" content="summary">`}
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">`
}

function cardMeta(url: string, alt: string): Markup {
  return html`<meta property="og:image" content="${url}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="${SHARE_CARD_SIZE.width}">
<meta property="og:image:height" content="${SHARE_CARD_SIZE.height}">
<meta property="og:image:alt" content="${alt}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:image" content="${url}">
<meta name="twitter:image:alt" content="${alt}">`
}

/** What the card shows, in words: the badge, the achievement and the club (no recipient: the card has none). */
export function shareCardAlt(view: ShareView): string {
  return `${view.achievement.name} 배지 · ${view.club.name} (${view.achievement.nameEn ?? view.achievement.name} badge)`
}

export function socialTitle(view: ShareView): string {
  return `${view.achievement.name} · ${view.recipientName}`
}

function socialDescription(view: ShareView): string {
  const lead = `${view.club.name} 발급 디지털 자격증명 (Open Badges 3.0)`
  const text = view.achievement.description.replace(/\s+/g, ' ').trim()
  return text ? `${lead}. ${truncate(text, DESCRIPTION_LIMIT)}` : lead
}

/** At most `limit` code points (never half a surrogate pair), with an ellipsis when cut. */
function truncate(text: string, limit: number): string {
  const points = Array.from(text)
  return points.length <= limit ? text : `${points.slice(0, limit - 1).join('')}…`
}
