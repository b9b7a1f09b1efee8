import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, type Words } from './pages.ts'
import { SCOPE_NAMES, toScopeString } from '../../core/scopes.ts'
import { CLIENTS_TITLE, SHOWN_ONCE, confirmBox, csrfField, doneNotice, integrationsNav, secretBox, when } from './integration-parts.ts'
import { both } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { ClientView } from '../../core/clients/list.ts'

/** What each scope lets a client do (docs/api.md §2.2), for the checkboxes. */
const SCOPE_WORDS: Record<(typeof SCOPE_NAMES)[number], Words> = {
  'clubs:read': { ko: '클럽 정보 읽기', en: 'Read the club' },
  'billing:read': { ko: '요금 정보 읽기', en: 'Read billing' },
  'achievements:read': { ko: '템플릿 읽기', en: 'Read templates' },
  'achievements:manage': { ko: '템플릿 만들기·고치기', en: 'Create and edit templates' },
  'designs:read': { ko: '디자인 읽기', en: 'Read designs' },
  'designs:manage': { ko: '디자인 만들기·고치기', en: 'Create and edit designs' },
  'issuance:read': { ko: '발급 내역 읽기', en: 'Read issuances' },
  'issuance:write': { ko: '발급하기', en: 'Issue' },
  'issuance:revoke': { ko: '발급 취소하기', en: 'Revoke' },
  'events:read': { ko: '이벤트 읽기', en: 'Read events' },
}

/** A client's page: `{base}/clients/{client_id}`. */
export const clientPath = (base: string, id: string) => `${base}/clients/${id}`

const state = (client: ClientView) =>
  client.lockedForSeconds > 0
    ? html`<span class="status-locked">${both({ ko: `잠김 (${client.lockedForSeconds}초)`, en: `Locked (${client.lockedForSeconds} s)` })}</span>`
    : both({ ko: '사용 중', en: 'Active' })

export interface ClientListPage {
  clients: ClientView[]
  done?: Words | null
  /** The create form as sent, when it is shown again. */
  chosen?: Set<string>
  error?: Words | null
}

export function clientListPage(base: string, session: ConsoleSession, { clients, done = null, chosen = new Set(), error = null }: ClientListPage): string {
  const rows = clients.map(
    (client) => html`<tr>
<td><a href="${clientPath(base, client.client_id)}"><code>${client.client_id}</code></a></td>
<td>${client.scopes.join(' ')}</td>
<td>${when(client.createdAt)}</td>
<td>${state(client)}</td>
</tr>`,
  )
  return consoleDocument(
    base,
    CLIENTS_TITLE,
    html`${integrationsNav(base, 'clients')}
<section class="card">
<h1>${both(CLIENTS_TITLE)}</h1>
${doneNotice(done)}
<p class="hint">${both({
      ko: 'OAuth 2.0 클라이언트 자격 증명(client credentials)으로 API를 부르는 프로그램입니다.',
      en: 'Programs that call the API with the OAuth 2.0 client credentials grant.',
    })} ${both(SHOWN_ONCE)}</p>
${
  clients.length === 0
    ? html`<p>${both({ ko: '클라이언트가 없습니다.', en: 'No clients.' })}</p>`
    : html`<table>
<thead><tr><th scope="col">${both({ ko: '클라이언트 ID', en: 'Client id' })}</th><th scope="col">${both({ ko: '권한', en: 'Scopes' })}</th><th scope="col">${both({ ko: '만든 때', en: 'Created' })}</th><th scope="col">${both({ ko: '상태', en: 'State' })}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
</section>
<section class="card">
<h2>${both({ ko: '새 클라이언트', en: 'New client' })}</h2>
${error ? html`<p class="notice" role="alert">${both({ ko: '만들지 않았습니다.', en: 'Not created.' })}</p>` : null}
<form method="post" action="${base}/clients">
${csrfField(session.csrfToken)}
<fieldset${error ? html` aria-describedby="scopes-error"` : null}>
<legend>${both({ ko: '권한 (하나 이상)', en: 'Scopes (at least one)' })}</legend>
${SCOPE_NAMES.map(
  (scope) =>
    html`<label class="check" for="scope-${scope}"><input id="scope-${scope}" type="checkbox" name="scope" value="${scope}"${chosen.has(scope) ? html` checked` : null}> <code>${scope}</code> ${both(SCOPE_WORDS[scope])}</label>`,
)}
${error ? html`<p class="error" id="scopes-error">${both(error)}</p>` : null}
</fieldset>
<button type="submit">만들기 <span lang="en">Create</span></button>
</form>
</section>`,
    session,
  )
}

/** The answer to a create or a rotation: the one page with the secret on it. */
export function clientSecretPage(
  base: string,
  session: ConsoleSession,
  { clientId, secret, scopes, tokenUrl, rotated }: { clientId: string; secret: string; scopes: readonly string[]; tokenUrl: string; rotated: boolean },
): string {
  const title: Words = rotated ? { ko: '새 클라이언트 비밀 값', en: 'New client secret' } : { ko: '클라이언트를 만들었습니다', en: 'Client created' }
  return consoleDocument(
    base,
    title,
    html`${integrationsNav(base, 'clients')}
<section class="card">
<h1>${both(title)}</h1>
<dl class="facts">
<div><dt>${both({ ko: '클라이언트 ID', en: 'Client id' })}</dt><dd><code id="client-id">${clientId}</code></dd></div>
<div><dt>${both({ ko: '토큰 주소', en: 'Token endpoint' })}</dt><dd><code>${tokenUrl}</code></dd></div>
<div><dt>${both({ ko: '요청할 권한', en: 'Scope to request' })}</dt><dd><code>${scopes.map((scope) => toScopeString(scope as (typeof SCOPE_NAMES)[number])).join(' ')}</code></dd></div>
</dl>
${secretBox({ ko: '클라이언트 비밀 값', en: 'Client secret' }, secret)}
${rotated ? html`<p>${both({ ko: '이전 비밀 값과 그것으로 받은 토큰은 이제 쓸 수 없습니다.', en: 'The old secret and the tokens obtained with it no longer work.' })}</p>` : null}
<p><a href="${clientPath(base, clientId)}">${both({ ko: '클라이언트 보기', en: 'View the client' })}</a></p>
</section>`,
    session,
  )
}

export interface ClientDetailPage {
  client: ClientView
  done?: Words | null
  /** Errors of the rotate and delete forms, by form. */
  errors?: Map<'rotate' | 'delete', Words>
}

export function clientDetailPage(base: string, session: ConsoleSession, { client, done = null, errors = new Map() }: ClientDetailPage): string {
  const path = clientPath(base, client.client_id)
  const action = (name: 'rotate' | 'delete', heading: Words, confirm: Words, button: Words): Markup => html`<section class="card">
<h2>${both(heading)}</h2>
<form method="post" action="${path}/${name}">
${csrfField(session.csrfToken)}
${confirmBox(`confirm-${name}`, confirm, errors.get(name) ?? null)}
<button type="submit">${both(button)}</button>
</form>
</section>`
  return consoleDocument(
    base,
    { ko: '클라이언트', en: 'Client' },
    html`${integrationsNav(base, 'clients')}
<section class="card">
<p><a href="${base}/clients">← ${both(CLIENTS_TITLE)}</a></p>
<h1><code>${client.client_id}</code></h1>
${doneNotice(done)}
<dl class="facts">
<div><dt>${both({ ko: '권한', en: 'Scopes' })}</dt><dd>${client.scopes.join(' ')}</dd></div>
<div><dt>${both({ ko: '만든 때', en: 'Created' })}</dt><dd>${when(client.createdAt)}</dd></div>
<div><dt>${both({ ko: '비밀 값 설정', en: 'Secret set' })}</dt><dd>${when(client.secretSetAt)}</dd></div>
<div><dt>${both({ ko: '상태', en: 'State' })}</dt><dd>${state(client)}</dd></div>
</dl>
<p class="hint">${both({ ko: '비밀 값은 다시 볼 수 없습니다. 잃어버렸으면 새로 발급하세요.', en: 'The secret cannot be shown again. If it is lost, rotate it.' })}</p>
</section>
${action(
  'rotate',
  { ko: '비밀 값 새로 발급', en: 'Rotate the secret' },
  { ko: '이전 비밀 값과 그것으로 받은 토큰은 바로 쓸 수 없게 됩니다.', en: 'The old secret and its tokens stop working at once.' },
  { ko: '새로 발급', en: 'Rotate' },
)}
${action(
  'delete',
  { ko: '클라이언트 삭제', en: 'Delete the client' },
  { ko: '삭제하면 되돌릴 수 없으며, 이 클라이언트의 토큰은 바로 쓸 수 없게 됩니다.', en: 'Deleting cannot be undone; its tokens stop working at once.' },
  { ko: '삭제', en: 'Delete' },
)}`,
    session,
  )
}
