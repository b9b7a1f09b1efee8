import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, both, type Words } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { RevokeManyResult } from '../../core/issuances/revoke-many.ts'
import { ISSUANCES_TITLE, issuancePath } from './issuance-pages.ts'

const TITLE: Words = { ko: '여러 발급 취소', en: 'Revoke several issuances' }

/** What the confirmation names: how many, and the first few recipients. */
export interface BulkChoice {
  ids: number[]
  /** Up to ten of the chosen, to show whom it is about. */
  sample: { id: number; name: string }[]
}

/** The one confirmation of a bulk revoke: the count, a few names, the reason and the ticked box. */
export function bulkConfirmPage(
  base: string,
  session: ConsoleSession,
  { ids, sample }: BulkChoice,
  { reason = '', errors = new Map<string, Words>() }: { reason?: string; errors?: Map<string, Words> } = {},
): string {
  const reasonError = errors.get('reason')
  const confirmError = errors.get('confirm')
  const more = ids.length - sample.length
  return consoleDocument(
    base,
    TITLE,
    html`<section class="card">
<p><a href="${base}/issuances">← ${both(ISSUANCES_TITLE)}</a></p>
<h1>${both({ ko: `발급 ${ids.length}개 취소`, en: `Revoke ${ids.length} issuances` })}</h1>
${errors.size > 0 ? html`<p class="notice" role="alert">${both({ ko: '취소하지 않았습니다.', en: 'Nothing was revoked.' })}</p>` : null}
<ul>
${sample.map((item) => html`<li><a href="${issuancePath(base, item.id)}">${item.name}</a></li>`)}
${more > 0 ? html`<li>${both({ ko: `외 ${more}개`, en: `and ${more} more` })}</li>` : null}
</ul>
<form method="post" action="${base}/issuances/revoke">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<input type="hidden" name="step" value="revoke">
${ids.map((id) => html`<input type="hidden" name="id" value="${String(id)}">`)}
<label for="reason">${both({ ko: '사유 (선택, 500자까지)', en: 'Reason (optional, up to 500 characters)' })}</label>
<textarea id="reason" name="reason" rows="3"${reasonError ? html` aria-invalid="true" aria-describedby="reason-error"` : null}>
${reason}</textarea>
${reasonError ? html`<p class="error" id="reason-error">${both(reasonError)}</p>` : null}
<label class="check"><input type="checkbox" name="confirm" value="yes"${confirmError ? html` aria-invalid="true" aria-describedby="confirm-error"` : null}> ${both(
      {
        ko: `${ids.length}개를 모두 취소합니다. 되돌릴 수 없으며, 검증하는 누구에게나 취소됨으로 보입니다.`,
        en: `Revoke all ${ids.length}. This cannot be undone; everyone who verifies sees them revoked.`,
      },
    )}</label>
${confirmError ? html`<p class="error" id="confirm-error">${both(confirmError)}</p>` : null}
<button type="submit">모두 취소하기 <span lang="en">Revoke all</span></button>
</form>
</section>`,
    session,
  )
}

/** Why there is nothing to confirm: no row chosen, or more than the limit in the filter. */
export function bulkRefusedPage(base: string, session: ConsoleSession, reason: Words): string {
  return consoleDocument(
    base,
    TITLE,
    html`<section class="card">
<h1>${both(TITLE)}</h1>
<p class="notice" role="alert">${both(reason)}</p>
<p><a href="${base}/issuances">← ${both(ISSUANCES_TITLE)}</a></p>
</section>`,
    session,
  )
}

/** What the bulk revoke did: the counts, and each id that was not revoked with why. */
export function bulkResultPage(base: string, session: ConsoleSession, { results, summary }: RevokeManyResult): string {
  const notRevoked: Markup[] = results.flatMap((item) =>
    item.status === 'revoked'
      ? []
      : [
          html`<li>${item.ref}: ${
            item.status === 'skipped' ? both({ ko: '이미 취소됨', en: 'already revoked' }) : both({ ko: '찾을 수 없음', en: 'not found' })
          }</li>`,
        ],
  )
  return consoleDocument(
    base,
    TITLE,
    html`<section class="card">
<h1>${both(TITLE)}</h1>
<p class="done" role="status">${both({
      ko: `${summary.ok}개를 취소했습니다. 건너뜀 ${summary.skipped}개, 실패 ${summary.failed}개.`,
      en: `Revoked ${summary.ok}. Skipped ${summary.skipped}, failed ${summary.failed}.`,
    })}</p>
${notRevoked.length > 0 ? html`<ul>${notRevoked}</ul>` : null}
<p><a href="${base}/issuances">← ${both(ISSUANCES_TITLE)}</a></p>
</section>`,
    session,
  )
}
