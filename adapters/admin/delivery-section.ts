import { html, type Markup } from '../http/share-page/html.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { EventView } from '../../core/events/present.ts'
import type { IssuanceDetail } from '../../core/issuances/present.ts'
import { RESEND_LIMIT } from '../../core/issuances/notify.ts'
import { both, type Words } from './pages.ts'

const when = (iso: string) => html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`

const OUTCOME: Record<string, Words> = {
  'issuance.notified': { ko: '메일 서버가 받음', en: 'Accepted by the mail server' },
  'issuance.notification_failed': { ko: '보내지 못함', en: 'Failed' },
}

/**
 * The issuance page's delivery (docs/admin-console.md § Issuances): each mail as its event tells it
 * (sent, or given up), newest first, and the form that mails the recipient again; a revoked issuance
 * shows its mails but no form. `error` is why the last resend was refused.
 */
export function deliverySection(base: string, session: ConsoleSession, detail: IssuanceDetail, mails: EventView[], error: Words | null = null): Markup {
  const rows = mails.map(
    (event) =>
      html`<tr><td>${when(event.occurredAt)}</td><td class="${event.type === 'issuance.notified' ? 'status-valid' : 'status-revoked'}">${both(
        OUTCOME[event.type] ?? { ko: event.type, en: event.type },
      )}</td></tr>`,
  )
  return html`<section class="card" aria-labelledby="delivery-title">
<h2 id="delivery-title">${both({ ko: '메일 발송', en: 'Delivery' })}</h2>
${
  mails.length === 0
    ? html`<p>${both({ ko: '보낸 메일이 없습니다.', en: 'No mail sent yet.' })}</p>`
    : html`<table>
<caption class="visually-hidden">${both({ ko: '받는 사람에게 보낸 메일', en: 'Mails to the recipient' })}</caption>
<thead><tr><th scope="col">${both({ ko: '시각', en: 'When' })}</th><th scope="col">${both({ ko: '결과', en: 'Outcome' })}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
${error ? html`<p class="notice" role="alert">${both(error)}</p>` : null}
${
  detail.status === 'revoked'
    ? null
    : html`<form method="post" action="${base}/issuances/${String(detail.id)}/notify">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<p class="hint" id="resend-hint">${both({
        ko: `공유 링크와 지갑 링크를 ${detail.recipient.email} 주소로 다시 보냅니다. 24시간에 ${RESEND_LIMIT}번까지입니다.`,
        en: `Sends the share and wallet links to ${detail.recipient.email} again; up to ${RESEND_LIMIT} times in 24 hours.`,
      })}</p>
<button type="submit" aria-describedby="resend-hint">다시 보내기 <span lang="en">Send again</span></button>
</form>`
}
</section>`
}
