import { html, type Markup } from '../http/share-page/html.ts'
import { both, type Words } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { IssuanceDetail } from '../../core/issuances/present.ts'

/** The reissue form as typed, when it is shown again after a refusal. */
export interface ReissueFormState {
  name: string
  email: string
  /** `YYYY-MM-DD`, or `''` for none. */
  expiresOn: string
  reason: string
  mail: boolean
  currentTemplate: boolean
  /** Errors by field (`name`, `email`, `expiresOn`, `reason`). */
  errors: Map<string, Words>
}

/** The form as the detail fills it: the issuance's values, nothing else ticked. */
export const reissueFormOf = (detail: IssuanceDetail): ReissueFormState => ({
  name: detail.recipient.name,
  email: detail.recipient.email,
  expiresOn: detail.expiresAt?.slice(0, 10) ?? '',
  reason: '',
  mail: false,
  currentTemplate: false,
  errors: new Map(),
})

/** The versions of the credential (docs/api.md §4.17), newest first: when each was signed and its JWT's digest. */
export function versionsSection(base: string, detail: IssuanceDetail): Markup {
  if (detail.versions.length === 0 && detail.replaces === null && detail.replacedBy === null) return html``
  const rows = detail.versions.map(
    (version, i) => html`<tr>
<td>${String(detail.versions.length - i)}${i === 0 ? html` · ${both({ ko: '최신', en: 'newest' })}` : null}</td>
<td><time datetime="${version.validFrom}">${version.validFrom.slice(0, 16).replace('T', ' ')} UTC</time></td>
<td><code>${version.jwtSha256.slice(0, 16)}…</code></td>
</tr>`,
  )
  const link = (id: number) => html`<a href="${base}/issuances/${String(id)}">${String(id)}</a>`
  return html`<section class="card">
<h2>${both({ ko: '버전', en: 'Versions' })}</h2>
${detail.replaces !== null ? html`<p>${both({ ko: '이전 발급에서 옮겨 왔습니다:', en: 'Moved here from issuance' })} ${link(detail.replaces)}</p>` : null}
${detail.replacedBy !== null ? html`<p>${both({ ko: '다른 받는 사람에게 옮겨 갔습니다:', en: 'Moved to issuance' })} ${link(detail.replacedBy)}</p>` : null}
${
  rows.length > 0
    ? html`<table>
<thead><tr><th scope="col">${both({ ko: '버전', en: 'Version' })}</th><th scope="col">${both({ ko: '유효 시작', en: 'Valid from' })}</th><th scope="col">JWT SHA-256</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : null
}
</section>`
}

/**
 * The reissue form (docs/admin-console.md § Reissue): the same recipient gets a new version of the same
 * credential; another e-mail moves it to a new issuance and revokes this one, which the form says.
 */
export function reissueSection(action: string, session: ConsoleSession, form: ReissueFormState): Markup {
  const { errors } = form
  const invalid = (name: string) => (errors.has(name) ? html` aria-invalid="true" aria-describedby="reissue-${name}-error"` : null)
  const error = (name: string) => (errors.has(name) ? html`<p class="error" id="reissue-${name}-error">${both(errors.get(name)!)}</p>` : null)
  return html`<section class="card">
<h2>${both({ ko: '다시 발급', en: 'Reissue' })}</h2>
<p class="hint" id="reissue-hint">${both({
    ko: '같은 받는 사람이면 같은 배지의 새 버전이 서명됩니다. 이메일을 바꾸면 새 발급으로 옮기고 이 발급은 취소됩니다.',
    en: 'The same recipient gets a new version of the same badge; another e-mail moves it to a new issuance and revokes this one.',
  })}</p>
${errors.size > 0 ? html`<p class="notice" role="alert">${both({ ko: '다시 발급하지 않았습니다.', en: 'Not reissued.' })}</p>` : null}
<form method="post" action="${action}" aria-describedby="reissue-hint">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<label for="reissue-name">${both({ ko: '이름', en: 'Name' })}</label>
<input id="reissue-name" name="name" maxlength="200" required value="${form.name}"${invalid('name')}>
${error('name')}
<label for="reissue-email">${both({ ko: '이메일', en: 'E-mail' })}</label>
<input id="reissue-email" name="email" type="email" maxlength="254" required value="${form.email}"${invalid('email')}>
${error('email')}
<label for="reissue-expires">${both({ ko: '만료일 (YYYY-MM-DD, 비우면 만료 없음)', en: 'Expires on (YYYY-MM-DD; empty: never)' })}</label>
<input id="reissue-expires" name="expiresOn" inputmode="numeric" pattern="\\d{4}-\\d{2}-\\d{2}" maxlength="10" autocomplete="off" value="${form.expiresOn}"${invalid('expiresOn')}>
${error('expiresOn')}
<label for="reissue-reason">${both({ ko: '사유 (선택, 500자까지, 공개되지 않음)', en: 'Reason (optional, up to 500 characters, never public)' })}</label>
<textarea id="reissue-reason" name="reason" rows="2"${invalid('reason')}>
${form.reason}</textarea>
${error('reason')}
<label class="check"><input type="checkbox" name="template" value="current"${form.currentTemplate ? html` checked` : null}> ${both({
    ko: '템플릿을 지금 모습대로 사용',
    en: 'Use the template as it is now',
  })}</label>
<label class="check"><input type="checkbox" name="mode" value="email"${form.mail ? html` checked` : null}> ${both({
    ko: '서명되면 받는 사람에게 메일 보내기',
    en: 'Mail the recipient once signed',
  })}</label>
<button type="submit">다시 발급 <span lang="en">Reissue</span></button>
</form>
</section>`
}

/**
 * Renewing the rows chosen in the list's one bulk form (issuance-pages.ts `bulkForm`), beside revoking
 * them: one new expiry for each, one ticked box, submitted to `action` by its own button. Neither field
 * is `required`, so that the form's revoke button still submits without them; the route renews nothing
 * without both.
 */
export function renewFieldset(action: string): Markup {
  return html`<fieldset>
<legend>${both({ ko: '고른 발급 갱신', en: 'Renew the issuances chosen' })}</legend>
<label for="renew-expires">${both({ ko: '새 만료일 (YYYY-MM-DD)', en: 'New expiry date (YYYY-MM-DD)' })}</label>
<input id="renew-expires" name="expiresOn" inputmode="numeric" maxlength="10" autocomplete="off">
<label class="check"><input type="checkbox" name="renewConfirm" value="yes"> ${both({
    ko: '선택한 발급마다 새 버전이 서명됩니다.',
    en: 'Each chosen issuance gets a new version.',
  })}</label>
<button type="submit" formaction="${action}">갱신하기 <span lang="en">Renew</span></button>
</fieldset>`
}
