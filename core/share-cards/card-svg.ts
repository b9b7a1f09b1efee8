import { escapeHtml } from '../util/escape-html.ts'
import { badgeSvg } from '../files/badge-picture.ts'
import { SHARE_CARD_FONT_FAMILY, SHARE_CARD_SIZE } from '../ports/share-card-renderer.ts'
import type { StoredImage } from '../designs/design.ts'
import { nestSvg } from './nest-svg.ts'
import { wrapText } from './wrap-text.ts'

/** What a share card shows: the badge, the achievement's name and the club's name, as the credential carries them. */
export interface ShareCardContent {
  achievementName: string
  clubName: string
  /** The badge design's image, or `null` for the built-in badge. */
  badge: StoredImage | null
}

const { width: WIDTH, height: HEIGHT } = SHARE_CARD_SIZE
const BADGE = { x: 80, y: 135, side: 360 }
const TEXT_X = 520
const TEXT_WIDTH = WIDTH - TEXT_X - 80
const NAME = { size: 60, lineHeight: 74, maxLines: 3 }
const CLUB = { size: 34, maxLines: 1 }
const INK = '#1b1f24'
const MUTED = '#5b6472'
const ACCENT = '#1f3a5f'

/**
 * The share card as an SVG of 1200×630 for the renderer: the badge on the left (a PNG design as it is,
 * an SVG design as sanitised again, or the built-in badge), the achievement's name (up to three lines)
 * and the club's name on the right, and a line naming what it is. No verdict: sites keep a card for
 * days, so it must stay true when the credential is revoked or expires (the page itself is live).
 * Every image is inline and every text escaped; the only font named is the one the renderer loads.
 */
export function shareCardSvg({ achievementName, clubName, badge }: ShareCardContent): string {
  const nameLines = wrapText(achievementName.trim() || '—', { width: TEXT_WIDTH, fontSize: NAME.size, maxLines: NAME.maxLines })
  const [club = ''] = wrapText(clubName.trim(), { width: TEXT_WIDTH, fontSize: CLUB.size, maxLines: CLUB.maxLines })
  // The block of name, club and footer is centred on the badge's middle.
  const blockHeight = nameLines.length * NAME.lineHeight + 24 + CLUB.size + 40 + 26
  const top = BADGE.y + BADGE.side / 2 - blockHeight / 2
  const nameBaseline = (index: number) => round(top + NAME.size * 0.9 + index * NAME.lineHeight)
  const clubBaseline = round(top + nameLines.length * NAME.lineHeight + 24 + CLUB.size * 0.9)
  const footerBaseline = round(clubBaseline + 40 + 26)
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#f7f8fa"/>` +
    `<rect width="${WIDTH}" height="14" fill="${ACCENT}"/>` +
    `<rect x="40" y="54" width="${WIDTH - 80}" height="${HEIGHT - 94}" rx="28" fill="#ffffff" stroke="#e6e9ef" stroke-width="2"/>` +
    badgePicture(badge, achievementName, clubName) +
    nameLines.map((line, index) => text(line, TEXT_X, nameBaseline(index), NAME.size, INK, 700)).join('') +
    text(club, TEXT_X, clubBaseline, CLUB.size, ACCENT, 600) +
    text('디지털 자격증명 · Open Badges 3.0', TEXT_X, footerBaseline, 26, MUTED, 400) +
    `</svg>`
  )
}

function text(content: string, x: number, y: number, size: number, fill: string, weight: number): string {
  return `<text x="${x}" y="${y}" font-family="${SHARE_CARD_FONT_FAMILY}" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeHtml(content)}</text>`
}

/**
 * A PNG design as an `<image>`; an SVG design (sanitised again) or the built-in badge nested as SVG, the
 * same picture the baked SVG file shows.
 */
function badgePicture(badge: StoredImage | null, templateName: string, clubName: string): string {
  if (badge?.mediaType === 'image/png') {
    return `<image x="${BADGE.x}" y="${BADGE.y}" width="${BADGE.side}" height="${BADGE.side}" preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,${base64(badge.bytes)}"/>`
  }
  const names = { templateName, clubName }
  return nestSvg(badgeSvg(badge, names), BADGE) ?? nestSvg(badgeSvg(null, names), BADGE)!
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

const round = (value: number) => Math.round(value)
