import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, passkeyScript, both, type Words } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { PasskeyView } from '../../core/admins/passkey-account.ts'

const when = (ms: number | null) => {
  if (ms === null) return html`—`
  const iso = new Date(ms).toISOString()
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`
}

export const ACCOUNT_TITLE: Words = { ko: '내 계정', en: 'Account' }

export interface AccountPageState {
  /** `null` when the server offers no passkeys. */
  passkeys: PasskeyView[] | null
  done?: Words | null
  /** The passkey whose remove form was refused, and why. */
  refused?: { id: string; words: Words } | null
}

/**
 * The account page: who is signed in, the passkeys with their names and dates, a remove form for each
 * (a ticked box confirms it: no script needed), and the add button, which the script shows where the
 * browser has passkeys.
 */
export function accountPage(base: string, session: ConsoleSession, { passkeys, done = null, refused = null }: AccountPageState): string {
  return consoleDocument(
    base,
    ACCOUNT_TITLE,
    html`<section class="card">
<h1>${both(ACCOUNT_TITLE)}</h1>
<p>${session.name} (${session.email}) · ${session.club}</p>
</section>
<section class="card">
<h2>패스키 <span lang="en">Passkeys</span></h2>
${done ? html`<p class="done" role="status">${both(done)}</p>` : null}
${passkeys === null ? html`<p>${both({ ko: '이 서버는 패스키를 지원하지 않습니다.', en: 'This server offers no passkeys.' })}</p>` : passkeyList(base, session, passkeys, refused)}
</section>`,
    session,
  )
}

function passkeyList(base: string, session: ConsoleSession, passkeys: PasskeyView[], refused: AccountPageState['refused']): Markup {
  return html`${
    passkeys.length === 0
      ? html`<p>${both({ ko: '등록된 패스키가 없습니다.', en: 'No passkeys yet.' })}</p>`
      : html`<table>
<thead><tr><th scope="col">이름 <span lang="en">Name</span></th><th scope="col">등록 <span lang="en">Created</span></th><th scope="col">마지막 사용 <span lang="en">Last used</span></th><th scope="col">삭제 <span lang="en">Remove</span></th></tr></thead>
<tbody>
${passkeys.map((passkey) => passkeyRow(base, session, passkey, refused?.id === passkey.id ? refused.words : null))}
</tbody>
</table>`
  }
<div class="passkey" data-passkey="account" data-base="${base}" data-csrf="${session.csrfToken}" hidden>
<label for="passkey-name">새 패스키 이름 (선택) <span lang="en">New passkey's name (optional)</span></label>
<input id="passkey-name" name="passkey-name" type="text" maxlength="64" autocomplete="off">
<button type="button">패스키 추가 <span lang="en">Add a passkey</span></button>
<p class="passkey-status" role="status"></p>
</div>
<p class="hint">${both({
    ko: '패스키를 추가하려면 JavaScript와 패스키를 지원하는 브라우저가 필요합니다.',
    en: 'Adding a passkey needs JavaScript and a browser with passkeys.',
  })}</p>
${passkeyScript(base)}`
}

function passkeyRow(base: string, session: ConsoleSession, passkey: PasskeyView, error: Words | null): Markup {
  const confirmId = `confirm-${passkey.id}`
  return html`<tr>
<th scope="row">${passkey.name}</th>
<td>${when(passkey.createdAt)}</td>
<td>${when(passkey.lastUsedAt)}</td>
<td><form method="post" action="${base}/account/passkeys/${passkey.id}/remove">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<label class="check" for="${confirmId}"><input id="${confirmId}" type="checkbox" name="confirm" value="yes"${error ? html` aria-invalid="true" aria-describedby="${confirmId}-error"` : null}> ${both({ ko: '삭제 확인', en: 'Confirm removal' })}</label>
${error ? html`<p class="error" id="${confirmId}-error">${both(error)}</p>` : null}
<button type="submit">삭제 <span lang="en">Remove</span></button>
</form></td>
</tr>`
}
