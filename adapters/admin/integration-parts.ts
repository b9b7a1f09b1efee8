import { html, type Markup } from '../http/share-page/html.ts'
import { both, type Words } from './pages.ts'

/**
 * Pieces the integration pages share (API clients, API keys, webhooks, the event feed): their sub-menu,
 * the box that shows a secret on the one answer that has it, the confirmation box of an action that
 * cannot be undone, and times.
 */

export const CLIENTS_TITLE: Words = { ko: 'API 클라이언트', en: 'API clients' }
export const API_KEYS_TITLE: Words = { ko: 'API 키', en: 'API keys' }
export const WEBHOOKS_TITLE: Words = { ko: '웹훅', en: 'Webhooks' }

/** The integration pages' own menu, under the console's header; the current page is marked for screen readers too. */
export function integrationsNav(base: string, current: 'clients' | 'api-keys' | 'webhooks'): Markup {
  const item = (path: typeof current, words: Words) => html`<a href="${base}/${path}"${path === current ? html` aria-current="page"` : null}>${both(words)}</a>`
  return html`<nav class="subnav" aria-label="연동 Integrations">${item('clients', CLIENTS_TITLE)} ${item('api-keys', API_KEYS_TITLE)} ${item('webhooks', WEBHOOKS_TITLE)}</nav>`
}

/** Said on every page that lists secrets' owners: a secret is shown on the one answer that creates it. */
export const SHOWN_ONCE: Words = {
  ko: '비밀 값은 만들 때(또는 새로 발급할 때) 한 번만 보여 주며, 다시 볼 수 없습니다.',
  en: 'A secret is shown once, when it is created or rotated; it cannot be shown again.',
}

/**
 * The secret on the answer to the form that made it: the only page it is ever on. A read-only field,
 * so that it can be selected and copied without script.
 */
export function secretBox(label: Words, secret: string): Markup {
  return html`<div class="secret">
<label for="secret">${both(label)}</label>
<input id="secret" type="text" readonly value="${secret}" autocomplete="off" spellcheck="false">
<p class="notice" role="alert">${both({
    ko: '지금 복사해 안전한 곳에 보관하세요. 이 페이지를 떠나면 다시 볼 수 없습니다.',
    en: 'Copy it now and keep it safe: once you leave this page it cannot be shown again.',
  })}</p>
</div>`
}

/** A box to tick before an action that cannot be undone; a POST without it is shown again (422) with the box marked. */
export function confirmBox(id: string, words: Words, error: Words | null): Markup {
  return html`<label class="check" for="${id}"><input id="${id}" type="checkbox" name="confirm" value="yes"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : null}> ${both(words)}</label>
${error ? html`<p class="error" id="${id}-error">${both(error)}</p>` : null}`
}

export const CONFIRM_NEEDED: Words = { ko: '계속하려면 확인란을 선택하세요.', en: 'Tick the box to confirm.' }

/** A time as the console shows it: minutes, UTC, with the exact time for machines. */
export const when = (iso: string | null) => (iso === null ? html`—` : html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`)

/** A notice that a form did what it said (`?done=` after a 303). */
export const doneNotice = (done: Words | null) => (done ? html`<p class="done" role="status">${both(done)}</p>` : null)

/** The CSRF field every form of a session carries. */
export const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`

/** The feed's event types in words (core/events/event.ts); a type added later is shown by its name alone. */
export const EVENT_WORDS: Record<string, Words> = {
  'issuance.issued': { ko: '발급 요청됨', en: 'Issuance created' },
  'issuance.credential_issued': { ko: '자격 증명 서명됨', en: 'Credential signed' },
  'issuance.revoked': { ko: '발급 취소됨', en: 'Issuance revoked' },
  'webhook.disabled': { ko: '웹훅 꺼짐', en: 'Webhook disabled' },
  'issuance.notified': { ko: '메일 보냄', en: 'Mail sent' },
  'issuance.notification_failed': { ko: '메일 보내지 못함', en: 'Mail failed' },
  'issuance.claimed': { ko: '지갑에 담음', en: 'Taken into a wallet' },
  'issuance.expiring': { ko: '만료 알림 보냄', en: 'Expiry reminder sent' },
  'issuance.expired': { ko: '만료됨', en: 'Expired' },
}

export const eventType = (type: string) => html`<code>${type}</code>${EVENT_WORDS[type] ? html` ${both(EVENT_WORDS[type])}` : null}`
