import { html, type Markup } from '../http/share-page/html.ts'
import type { IssuanceDetail } from '../../core/issuances/present.ts'
import { both, type Words } from './pages.ts'

const when = (iso: string | null) => (iso === null ? html`—` : html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`)

const VIA_WORDS: Record<IssuanceDetail['claims'][number]['via'], Words> = {
  oid4vci: { ko: '디지털 지갑 (OID4VCI)', en: 'Digital wallet (OID4VCI)' },
  lcw: { ko: 'Learner Credential Wallet', en: 'Learner Credential Wallet' },
}

/**
 * Who has it, on an issuance's page (docs/admin-console.md § Issuances): whether and when a wallet took the
 * credential, each take, and how many people viewed its share page (a number, never who).
 */
export function walletSection(detail: IssuanceDetail): Markup {
  return html`<section class="card" aria-labelledby="wallets-heading">
<h2 id="wallets-heading">${both({ ko: '지갑과 조회', en: 'Wallets and views' })}</h2>
<dl class="facts">
<div><dt>${both({ ko: '지갑에 담음', en: 'In a wallet' })}</dt><dd id="claimed-at">${detail.claimedAt === null ? both({ ko: '아직 아님', en: 'Not yet' }) : when(detail.claimedAt)}</dd></div>
<div><dt>${both({ ko: '공유 페이지 조회', en: 'Share page views' })}</dt><dd id="share-views">${String(detail.shareViews)}</dd></div>
<div><dt>${both({ ko: '마지막 조회', en: 'Last viewed' })}</dt><dd>${when(detail.lastViewedAt)}</dd></div>
</dl>
${
  detail.claims.length === 0
    ? null
    : html`<table>
<caption>${both({ ko: '지갑에 담은 기록', en: 'Taken into wallets' })}</caption>
<thead><tr><th scope="col">${both({ ko: '언제', en: 'When' })}</th><th scope="col">${both({ ko: '경로', en: 'Through' })}</th><th scope="col">${both({ ko: '형식', en: 'Format' })}</th></tr></thead>
<tbody>
${detail.claims.map((claim) => html`<tr><td>${when(claim.at)}</td><td>${both(VIA_WORDS[claim.via])}</td><td><code>${claim.format}</code></td></tr>`)}
</tbody>
</table>`
}
<p class="hint">${both({ ko: '링크 미리보기와 로봇의 조회는 세지 않으며, 몇 초 뒤에 반영됩니다.', en: 'Link previews and robots are not counted; views show after a few seconds.' })}</p>
</section>`
}
