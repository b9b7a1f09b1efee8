import { calendarDay, minuteUtc } from './dates.ts'
import { html, type Interpolation, type Markup } from './html.ts'
import { htmlDocument } from './layout.ts'
import { linkedInAddUrl } from './linkedin.ts'
import { walletBlock } from './wallet.ts'
import { shareButton, shareScript } from './share-button.ts'
import { socialMeta } from './social-meta.ts'
import { verdictBanner, type VerdictTone } from './verdict.ts'
import type { ShareView } from '../../../core/verification/share-view.ts'

export interface SharePageOptions {
  /** The QR code of the page's share URL, as a `data:` URI (see `qrDataUri`). */
  qr: string
  /** The QR code of the wallet offer link (`view.urls.walletOffer`), as a `data:` URI. */
  walletQr: string
  /** When the verdict was computed (ms), shown as "checked at". */
  now: number
}

/**
 * The share page of a credential (docs/api.md §4.11): the live verdict, what the signed credential says, and
 * ways to take it away (share button, downloads, verify link, LinkedIn, QR code). Server-rendered; its one
 * script, `/share.js`, only shows and runs the share button. Every value goes through `html`, which escapes it.
 */
export function renderSharePage(view: ShareView, { qr, walletQr, now }: SharePageOptions): string {
  const verdict = verdictBanner(view, calendarDay)
  const { achievement, club } = view
  const title = `${achievement.name} · ${club.name}`
  return htmlDocument({
    title,
    head: socialMeta(view),
    body: html`<main class="card card--${verdict.tone}">
<section class="verdict verdict--${verdict.tone}" role="status" aria-live="polite">
<span class="verdict__icon" aria-hidden="true">${verdict.icon}</span>
<div>
<p class="verdict__title">${verdict.ko} <span lang="en">${verdict.en}</span></p>
<p class="verdict__detail">${verdict.detailKo} <span lang="en">${verdict.detailEn}</span></p>
</div>
</section>
<div class="body">
<p class="eyebrow">디지털 자격증명 · <span lang="en">Digital credential</span></p>
<h1>${achievement.name}</h1>
${achievement.nameEn ? html`<p class="name-en" lang="en">${achievement.nameEn}</p>` : null}
${facts(view)}
${achievement.description ? section('설명', 'Description', html`<p class="description">${achievement.description}</p>`) : null}
${criteria(achievement.narrative)}
${achievement.tags.length > 0 ? section('역량', 'Skills', html`<ul class="tags">${achievement.tags.map((tag) => html`<li>${tag}</li>`)}</ul>`) : null}
${offersWallet(verdict.tone) ? walletBlock(view, walletQr) : null}
${takeAway(view, qr, verdict.tone, title)}
</div>
<footer>
<p>확인 시각 <span lang="en">Checked at</span> <time datetime="${new Date(now).toISOString()}">${minuteUtc(now)}</time></p>
<p>자격증명 ID <span lang="en">Credential ID</span> ${view.credentialId} · Open Badges 3.0</p>
</footer>
</main>
${shareScript}`,
  })
}

function section(ko: string, en: string, content: Markup): Markup {
  return html`<section>
<h2>${ko}<span lang="en">${en}</span></h2>
${content}
</section>`
}

function facts(view: ShareView): Markup {
  const partners = view.achievement.partners.filter((partner) => partner.role !== 'representative')
  return html`<dl class="facts">
${fact('받는 사람', 'Recipient', view.recipientName)}
${fact('발급 기관', 'Issuer', [view.club.name, view.club.issuerVerified ? verifiedMark() : null])}
${partners.length > 0 ? fact('공동 발급', 'Co-issuers', html`<ul>${partners.map((partner) => html`<li>${partner.name}${partner.isVerified ? verifiedMark() : null}</li>`)}</ul>`) : null}
${fact('발급일', 'Issued', html`<time datetime="${view.issuedAt}">${calendarDay(view.issuedAt)}</time>`)}
${view.validUntil ? fact('만료일', 'Expires', html`<time datetime="${view.validUntil}">${calendarDay(view.validUntil)}</time>`) : null}
</dl>`
}

function fact(ko: string, en: string, value: Interpolation): Markup {
  return html`<dt>${ko}<span lang="en">${en}</span></dt><dd>${value}</dd>`
}

function verifiedMark(): Markup {
  return html`<span class="verified" title="인증된 발급 기관 / Verified issuer">✓ 인증됨 <span lang="en">Verified</span></span>`
}

/** The engraved narrative (docs/api.md §2.3): one numbered line per requirement, shown as an ordered list. */
function criteria(narrative: string): Markup | null {
  const lines = narrative
    .split('\n')
    .map((line) => line.replace(/^\s*\d+\.\s*/, '').trim())
    .filter((line) => line !== '')
  if (lines.length === 0) return null
  return section('취득 기준', 'Criteria', html`<ol class="criteria">${lines.map((line) => html`<li>${line}</li>`)}</ol>`)
}

/**
 * A wallet is offered the credential while it may still be shown off, as LinkedIn is: valid or expired,
 * never revoked or forged (the token endpoint refuses a revoked credential's offer as well).
 */
const offersWallet = (tone: VerdictTone): boolean => tone === 'valid' || tone === 'expired'

/**
 * The JSON-LD form with its Data Integrity proof, the file the Learner Credential Wallet and VerifierPlus
 * take (docs/api.md §4.15): offered once its proof is made, announced while it is being made, and absent
 * for a credential signed before clubcred made proofs (docs/data-integrity.md § Storage).
 */
function jsonLdDownload(state: ShareView['jsonLd'], base: string): Markup | null {
  if (state === 'ready') {
    return html`<li><a class="button" href="${base}/credential.json" download>JSON-LD 내려받기 <span lang="en">Download JSON-LD</span></a></li>`
  }
  if (state === 'pending') {
    return html`<li><span class="button button--waiting" role="status">JSON-LD 준비 중, 잠시 후 새로 고침 <span lang="en">JSON-LD being prepared: reload shortly</span></span></li>`
  }
  return null
}

/**
 * Sharing, downloads, the verify link and the QR code stay whatever the verdict (anyone checking them sees it);
 * LinkedIn is offered only for what may still be shown off: not a revoked or forged credential.
 */
function takeAway(view: ShareView, qr: string, tone: VerdictTone, title: string): Markup {
  const base = `/credentials/${encodeURIComponent(view.credentialId)}`
  return html`<section class="take">
<h2>자격증명 가져가기<span lang="en">Take your credential</span></h2>
${shareButton(view, title)}
<ul class="actions">
<li><a class="button" href="${base}/credential.jwt" download>JWT 내려받기 <span lang="en">Download JWT</span></a></li>
${jsonLdDownload(view.jsonLd, base)}
${offersWallet(tone) ? html`<li><a class="button button--linkedin" href="${linkedInAddUrl(view)}" target="_blank" rel="noopener noreferrer">LinkedIn 프로필에 추가 <span lang="en">Add to LinkedIn</span></a></li>` : null}
</ul>
<div class="verify">
<label for="verify-url">검증 주소 <span lang="en">Verification URL</span></label>
<input id="verify-url" type="url" readonly value="${view.urls.verify}">
<a href="${view.urls.verify}" rel="noopener noreferrer">검증 결과 보기 <span lang="en">Open the verification result</span></a>
</div>
<figure class="qr">
<img src="${qr}" width="136" height="136" alt="이 페이지의 QR 코드 / QR code of this page">
<figcaption>이 페이지로 연결되는 QR 코드 <span lang="en">QR code of this page</span><br>${view.urls.share}</figcaption>
</figure>
</section>`
}
