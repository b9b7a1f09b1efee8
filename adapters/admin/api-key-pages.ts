import { html } from '../http/share-page/html.ts'
import { consoleDocument, type Words } from './pages.ts'
import { API_KEYS_TITLE, SHOWN_ONCE, confirmBox, csrfField, doneNotice, integrationsNav, secretBox, when } from './integration-parts.ts'
import { both } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { ApiKeyView } from '../../core/api-keys/list.ts'

/** An API key's page: `{base}/api-keys/{id}` (the 16 hex digits after `cck_`). */
export const apiKeyPath = (base: string, id: string) => `${base}/api-keys/${id}`

const state = (key: ApiKeyView) =>
  key.revokedAt === null ? both({ ko: '사용 중', en: 'Active' }) : html`<span class="status-revoked">${both({ ko: '폐기됨', en: 'Revoked' })}</span>`

export function apiKeyListPage(base: string, session: ConsoleSession, { keys, done = null }: { keys: ApiKeyView[]; done?: Words | null }): string {
  return consoleDocument(
    base,
    API_KEYS_TITLE,
    html`${integrationsNav(base, 'api-keys')}
<section class="card">
<h1>${both(API_KEYS_TITLE)}</h1>
${doneNotice(done)}
<p class="hint">${both({
      ko: '예전 방식 양식 생성 API(/open-api/achievements/forms)를 부르는 키입니다.',
      en: 'Keys of the legacy form creation API (/open-api/achievements/forms).',
    })} ${both(SHOWN_ONCE)}</p>
${
  keys.length === 0
    ? html`<p>${both({ ko: 'API 키가 없습니다.', en: 'No API keys.' })}</p>`
    : html`<table>
<thead><tr><th scope="col">${both({ ko: '키', en: 'Key' })}</th><th scope="col">${both({ ko: '만든 때', en: 'Created' })}</th><th scope="col">${both({ ko: '상태', en: 'State' })}</th></tr></thead>
<tbody>
${keys.map(
  (key) => html`<tr>
<td><a href="${apiKeyPath(base, key.id)}"><code>cck_${key.id}…</code></a></td>
<td>${when(key.createdAt)}</td>
<td>${state(key)}${key.revokedAt === null ? null : html` ${when(key.revokedAt)}`}</td>
</tr>`,
)}
</tbody>
</table>`
}
</section>
<section class="card">
<h2>${both({ ko: '새 API 키', en: 'New API key' })}</h2>
<form method="post" action="${base}/api-keys">
${csrfField(session.csrfToken)}
<button type="submit">만들기 <span lang="en">Create</span></button>
</form>
</section>`,
    session,
  )
}

/** The answer to the create: the one page with the key on it. */
export function apiKeyCreatedPage(base: string, session: ConsoleSession, { apiKey, id, endpoint }: { apiKey: string; id: string; endpoint: string }): string {
  const title: Words = { ko: 'API 키를 만들었습니다', en: 'API key created' }
  return consoleDocument(
    base,
    title,
    html`${integrationsNav(base, 'api-keys')}
<section class="card">
<h1>${both(title)}</h1>
${secretBox({ ko: 'API 키', en: 'API key' }, apiKey)}
<p>${both({ ko: '요청에 이렇게 보내세요:', en: 'Send it with each request:' })} <code>Authorization: Bearer cck_${id}.…</code> → <code>POST ${endpoint}</code></p>
<p><a href="${apiKeyPath(base, id)}">${both({ ko: '키 보기', en: 'View the key' })}</a></p>
</section>`,
    session,
  )
}

export function apiKeyDetailPage(
  base: string,
  session: ConsoleSession,
  { key, done = null, error = null }: { key: ApiKeyView; done?: Words | null; error?: Words | null },
): string {
  return consoleDocument(
    base,
    API_KEYS_TITLE,
    html`${integrationsNav(base, 'api-keys')}
<section class="card">
<p><a href="${base}/api-keys">← ${both(API_KEYS_TITLE)}</a></p>
<h1><code>cck_${key.id}…</code></h1>
${doneNotice(done)}
<dl class="facts">
<div><dt>${both({ ko: '만든 때', en: 'Created' })}</dt><dd>${when(key.createdAt)}</dd></div>
<div><dt>${both({ ko: '상태', en: 'State' })}</dt><dd id="state">${state(key)}</dd></div>
${key.revokedAt === null ? null : html`<div><dt>${both({ ko: '폐기한 때', en: 'Revoked' })}</dt><dd>${when(key.revokedAt)}</dd></div>`}
</dl>
<p class="hint">${both({ ko: '키는 다시 볼 수 없습니다. 잃어버렸으면 새 키를 만들고 이 키를 폐기하세요.', en: 'The key cannot be shown again. If it is lost, create a new one and revoke this one.' })}</p>
</section>
${
  key.revokedAt !== null
    ? null
    : html`<section class="card">
<h2>${both({ ko: '키 폐기', en: 'Revoke the key' })}</h2>
<form method="post" action="${apiKeyPath(base, key.id)}/revoke">
${csrfField(session.csrfToken)}
${confirmBox('confirm-revoke', { ko: '폐기하면 되돌릴 수 없으며, 이 키로 보낸 요청은 바로 거절됩니다.', en: 'Revoking cannot be undone; requests with this key are refused at once.' }, error)}
<button type="submit">폐기 <span lang="en">Revoke</span></button>
</form>
</section>`
}`,
    session,
  )
}
