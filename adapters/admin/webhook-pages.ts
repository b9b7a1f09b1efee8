import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, type Words } from './pages.ts'
import { EVENT_TYPES } from '../../core/events/event.ts'
import { SHOWN_ONCE, WEBHOOKS_TITLE, confirmBox, csrfField, doneNotice, eventType, integrationsNav, secretBox, when } from './integration-parts.ts'
import { both } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { WebhookView } from '../../core/webhooks/endpoint.ts'
import type { DeliveryView } from '../../core/webhooks/log.ts'

/** An endpoint's page: `{base}/webhooks/{id}`. */
export const webhookPath = (base: string, id: string) => `${base}/webhooks/${id}`

const enabledWords = (hook: WebhookView) =>
  hook.enabled ? both({ ko: '켜짐', en: 'Enabled' }) : html`<span class="status-revoked">${both({ ko: '꺼짐', en: 'Disabled' })}</span>`

const eventsOf = (hook: WebhookView) => hook.events.map((type) => html`<code>${type}</code> `)

/** The create form as typed, and its errors by field (`url`, `events`, or `''` above the form). */
export interface WebhookFormState {
  url: string
  events: Set<string>
  errors: Map<string, Words>
}

export const emptyWebhookForm = (): WebhookFormState => ({ url: '', events: new Set(), errors: new Map() })

export function webhookListPage(
  base: string,
  session: ConsoleSession,
  { hooks, done = null, form = emptyWebhookForm() }: { hooks: WebhookView[]; done?: Words | null; form?: WebhookFormState },
): string {
  const urlError = form.errors.get('url')
  const eventsError = form.errors.get('events')
  return consoleDocument(
    base,
    WEBHOOKS_TITLE,
    html`${integrationsNav(base, 'webhooks')}
<section class="card">
<h1>${both(WEBHOOKS_TITLE)}</h1>
${doneNotice(done)}
<p class="hint">${both({
      ko: '클럽의 이벤트를 서명해(Standard Webhooks) 보내는 주소입니다.',
      en: "Addresses the club's events are pushed to, signed (Standard Webhooks).",
    })} ${both(SHOWN_ONCE)}</p>
${
  hooks.length === 0
    ? html`<p>${both({ ko: '웹훅이 없습니다.', en: 'No webhooks.' })}</p>`
    : html`<table>
<thead><tr><th scope="col">URL</th><th scope="col">${both({ ko: '이벤트', en: 'Events' })}</th><th scope="col">${both({ ko: '상태', en: 'State' })}</th><th scope="col">${both({ ko: '만든 때', en: 'Created' })}</th></tr></thead>
<tbody>
${hooks.map(
  (hook) => html`<tr>
<td><a href="${webhookPath(base, hook.id)}">${hook.url}</a></td>
<td>${eventsOf(hook)}</td>
<td>${enabledWords(hook)}</td>
<td>${when(hook.createdAt)}</td>
</tr>`,
)}
</tbody>
</table>`
}
</section>
<section class="card">
<h2>${both({ ko: '새 웹훅', en: 'New webhook' })}</h2>
${form.errors.size > 0 ? html`<p class="notice" role="alert">${both({ ko: '만들지 않았습니다.', en: 'Not created.' })}</p>` : null}
<form method="post" action="${base}/webhooks">
${csrfField(session.csrfToken)}
<label for="url">URL</label>
<p class="hint" id="url-hint">${both({ ko: '공개된 https:// 주소', en: 'A public https:// address' })}</p>
<input id="url" name="url" type="url" required value="${form.url}" aria-describedby="url-hint${urlError ? ' url-error' : ''}"${urlError ? html` aria-invalid="true"` : null}>
${urlError ? html`<p class="error" id="url-error">${both(urlError)}</p>` : null}
<fieldset aria-describedby="events-hint${eventsError ? ' events-error' : ''}">
<legend>${both({ ko: '이벤트', en: 'Events' })}</legend>
<p class="hint" id="events-hint">${both({ ko: '고르지 않으면 모든 종류(나중에 추가될 종류 포함)를 보냅니다.', en: 'None ticked: every type, also types added later.' })}</p>
${EVENT_TYPES.map(
  (type) =>
    html`<label class="check" for="event-${type}"><input id="event-${type}" type="checkbox" name="events" value="${type}"${form.events.has(type) ? html` checked` : null}> ${eventType(type)}</label>`,
)}
${eventsError ? html`<p class="error" id="events-error">${both(eventsError)}</p>` : null}
</fieldset>
<button type="submit">만들기 <span lang="en">Create</span></button>
</form>
</section>`,
    session,
  )
}

/** The answer to a create or a rotation: the one page with the secret on it. */
export function webhookSecretPage(
  base: string,
  session: ConsoleSession,
  { hook, secret, rotated }: { hook: WebhookView; secret: string; rotated: boolean },
): string {
  const title: Words = rotated ? { ko: '새 웹훅 비밀 값', en: 'New webhook secret' } : { ko: '웹훅을 만들었습니다', en: 'Webhook created' }
  return consoleDocument(
    base,
    title,
    html`${integrationsNav(base, 'webhooks')}
<section class="card">
<h1>${both(title)}</h1>
<p>${hook.url}</p>
${secretBox({ ko: '서명 비밀 값', en: 'Signing secret' }, secret)}
<p class="hint">${both({
      ko: '받는 쪽은 이 값으로 webhook-signature 헤더를 검증합니다 (Standard Webhooks).',
      en: 'The receiver verifies the webhook-signature header with it (Standard Webhooks).',
    })}</p>
${
  rotated
    ? html`<p>${both({
        ko: `이전 비밀 값도 ${hook.previousSecretUntil?.slice(0, 16).replace('T', ' ') ?? ''} UTC까지 함께 서명합니다.`,
        en: `The old secret also signs until ${hook.previousSecretUntil?.slice(0, 16).replace('T', ' ') ?? ''} UTC.`,
      })}</p>`
    : null
}
<p><a href="${webhookPath(base, hook.id)}">${both({ ko: '웹훅 보기', en: 'View the webhook' })}</a></p>
</section>`,
    session,
  )
}

const DELIVERY_STATE: Record<'delivered' | 'failing' | 'waiting' | 'given-up', Words> = {
  delivered: { ko: '전달됨', en: 'Delivered' },
  failing: { ko: '재시도 중', en: 'Failing' },
  waiting: { ko: '대기 중', en: 'Pending' },
  'given-up': { ko: '포기함', en: 'Given up' },
}

const deliveryState = (delivery: DeliveryView) =>
  delivery.state !== 'pending' ? delivery.state : delivery.lastStatus !== null || delivery.lastError !== null ? 'failing' : 'waiting'

export interface WebhookDetailPage {
  hook: WebhookView
  deliveries: DeliveryView[]
  /** The next page's `before`, or `null` on the last page. */
  nextBefore: number | null
  done?: Words | null
  /** Errors by form (`delete`, `replay`). */
  errors?: Map<string, Words>
}

export function webhookDetailPage(
  base: string,
  session: ConsoleSession,
  { hook, deliveries, nextBefore, done = null, errors = new Map() }: WebhookDetailPage,
): string {
  const path = webhookPath(base, hook.id)
  const replayError = errors.get('replay')
  const rows = deliveries.map((delivery) => {
    const shown = deliveryState(delivery)
    return html`<tr>
<td>${delivery.id}</td>
<td>${delivery.eventId}</td>
<td class="delivery-${shown}">${both(DELIVERY_STATE[shown])}</td>
<td>${delivery.attempts}</td>
<td>${delivery.lastStatus ?? '—'}${delivery.lastError ? html`<br><span class="en" lang="en">${delivery.lastError}</span>` : null}</td>
<td>${when(delivery.nextAttemptAt)}</td>
<td><form method="post" action="${path}/replay">${csrfField(session.csrfToken)}<input type="hidden" name="event" value="${delivery.eventId}"><button type="submit" class="small">다시 보내기 <span lang="en">Replay</span> <span class="visually-hidden">${delivery.eventId}</span></button></form></td>
</tr>`
  })
  const section = (heading: Words, body: Markup) => html`<section class="card">
<h2>${both(heading)}</h2>
${body}
</section>`
  return consoleDocument(
    base,
    WEBHOOKS_TITLE,
    html`${integrationsNav(base, 'webhooks')}
<section class="card">
<p><a href="${base}/webhooks">← ${both(WEBHOOKS_TITLE)}</a></p>
<h1>${hook.url}</h1>
${doneNotice(done)}
<dl class="facts">
<div><dt>ID</dt><dd><code>${hook.id}</code></dd></div>
<div><dt>${both({ ko: '이벤트', en: 'Events' })}</dt><dd>${eventsOf(hook)}</dd></div>
<div><dt>${both({ ko: '상태', en: 'State' })}</dt><dd id="state">${enabledWords(hook)}</dd></div>
<div><dt>${both({ ko: '만든 때', en: 'Created' })}</dt><dd>${when(hook.createdAt)}</dd></div>
${hook.previousSecretUntil ? html`<div><dt>${both({ ko: '이전 비밀 값 서명 종료', en: 'Old secret signs until' })}</dt><dd>${when(hook.previousSecretUntil)}</dd></div>` : null}
</dl>
<p class="hint">${both({ ko: '비밀 값은 다시 볼 수 없습니다. 잃어버렸으면 새로 발급하세요.', en: 'The secret cannot be shown again. If it is lost, rotate it.' })}</p>
</section>
${section(
  { ko: '전달 기록', en: 'Deliveries' },
  html`${replayError ? html`<p class="notice" role="alert" id="replay-error">${both(replayError)}</p>` : null}
${
  deliveries.length === 0
    ? html`<p>${both({ ko: '전달 기록이 없습니다.', en: 'No deliveries.' })}</p>`
    : html`<table>
<thead><tr><th scope="col">#</th><th scope="col">${both({ ko: '이벤트', en: 'Event' })}</th><th scope="col">${both({ ko: '상태', en: 'State' })}</th><th scope="col">${both({ ko: '시도', en: 'Attempts' })}</th><th scope="col">${both({ ko: '마지막 응답', en: 'Last answer' })}</th><th scope="col">${both({ ko: '다음 시도', en: 'Next attempt' })}</th><th scope="col"><span class="visually-hidden">${both({ ko: '다시 보내기', en: 'Replay' })}</span></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
${nextBefore !== null ? html`<p><a href="${path}?before=${nextBefore}">다음 <span lang="en">Next</span></a></p>` : null}
${hook.enabled ? null : html`<p class="hint">${both({ ko: '꺼진 웹훅에는 다시 켤 때까지 보내지 않습니다.', en: 'A disabled webhook gets nothing until it is enabled again.' })}</p>`}`,
)}
${section(
  hook.enabled ? { ko: '웹훅 끄기', en: 'Disable' } : { ko: '웹훅 켜기', en: 'Enable' },
  html`<form method="post" action="${path}/enabled">
${csrfField(session.csrfToken)}
<input type="hidden" name="enabled" value="${hook.enabled ? 'no' : 'yes'}">
<button type="submit">${hook.enabled ? both({ ko: '끄기', en: 'Disable' }) : both({ ko: '켜기', en: 'Enable' })}</button>
</form>`,
)}
${section(
  { ko: '비밀 값 새로 발급', en: 'Rotate the secret' },
  html`<p class="hint">${both({ ko: '이전 비밀 값도 24시간 동안 함께 서명하므로 받는 쪽이 옮겨 갈 수 있습니다.', en: 'The old secret keeps signing beside the new one for 24 hours, so the receiver can switch.' })}</p>
<form method="post" action="${path}/rotate">
${csrfField(session.csrfToken)}
<button type="submit">${both({ ko: '새로 발급', en: 'Rotate' })}</button>
</form>`,
)}
${section(
  { ko: '웹훅 삭제', en: 'Delete the webhook' },
  html`<form method="post" action="${path}/delete">
${csrfField(session.csrfToken)}
${confirmBox('confirm-delete', { ko: '삭제하면 되돌릴 수 없으며, 전달 기록도 함께 지워집니다.', en: 'Deleting cannot be undone; its delivery log goes with it.' }, errors.get('delete') ?? null)}
<button type="submit">${both({ ko: '삭제', en: 'Delete' })}</button>
</form>`,
)}`,
    session,
  )
}
