import type { IRequest } from 'itty-router'
import { htmlResponse, seeOther } from './responses.ts'
import { emptyWebhookForm, webhookDetailPage, webhookListPage, webhookPath, webhookSecretPage, type WebhookFormState } from './webhook-pages.ts'
import { CONFIRM_NEEDED } from './integration-parts.ts'
import { isProblem } from './is-problem.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { WebhookView } from '../../core/webhooks/endpoint.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers, SessionFormHandler } from './route-handlers.ts'
import type { Words } from './pages.ts'
import { doneNoticeOf, idParamOf } from './request-values.ts'

/** Deliveries a page of the log shows. */
const PAGE = 20

const DONE: Record<string, Words> = {
  deleted: { ko: '웹훅을 삭제했습니다.', en: 'Webhook deleted.' },
  enabled: { ko: '웹훅을 켰습니다.', en: 'Webhook enabled.' },
  disabled: { ko: '웹훅을 껐습니다. 다시 켤 때까지 보내지 않습니다.', en: 'Webhook disabled: nothing is sent until it is enabled again.' },
  replayed: { ko: '다시 보내도록 전달을 추가했습니다.', en: 'A new delivery is queued.' },
}
const URL_REFUSED = '이 주소로는 보낼 수 없습니다.'
const EVENTS_REFUSED: Words = { ko: '알 수 없는 이벤트 종류입니다.', en: 'Unknown event type.' }
const NOTHING_TO_REPLAY: Words = {
  ko: '다시 보낼 이벤트가 없습니다 (이 웹훅이 받지 않는 종류이거나 없는 이벤트).',
  en: 'Nothing to replay: not an event of this club that this webhook takes.',
}

/** An endpoint id of a path (`wh_` and 16 base64url characters): anything else is simply not found. */
const idOf = (request: IRequest) => idParamOf(request, /^wh_[A-Za-z0-9_-]{16}$/)

/**
 * The webhooks pages (docs/admin-console.md § Webhooks): the club's endpoints, created, switched on and
 * off, rotated and deleted, their delivery log and replay, on the operations the admin CLI calls
 * (`issuer.webhooks.*`), for the session's club only. A secret is on the answer to the form that made it
 * and on no other page.
 */
export function webhookHandlers({ issuer, base, notFound }: ConsoleFrame) {
  const webhooks = issuer.webhooks
  /** An endpoint of the session's club, or `null`: another club's id is not found, as an unknown one. */
  const hookOf = async (session: ConsoleSession, id: string | null): Promise<WebhookView | null> =>
    id === null ? null : ((await webhooks.list(session.club)).find((hook) => hook.id === id) ?? null)

  const detail = async (
    session: ConsoleSession,
    hook: WebhookView,
    before: number | null,
    extra: { done?: Words | null; errors?: Map<string, Words> } = {},
  ) => {
    const listed = await webhooks.deliveries(hook.id, PAGE + 1, before)
    const deliveries = listed.slice(0, PAGE)
    const nextBefore = listed.length > PAGE ? deliveries[deliveries.length - 1]!.id : null
    return webhookDetailPage(base, session, { hook, deliveries, nextBefore, ...extra })
  }

  /** A POST of an endpoint's page: the session's club's endpoint, or 404 and nothing changed. */
  const onHook =
    (run: (session: ConsoleSession, hook: WebhookView, form: URLSearchParams) => Promise<Response>): SessionFormHandler =>
    async ({ session, form }, request) => {
      const hook = await hookOf(session, idOf(request))
      if (!hook) return notFound(session)
      try {
        return await run(session, hook, form)
      } catch (error) {
        // Deleted since it was read.
        if (isProblem(error, 'webhook-not-found')) return notFound(session)
        throw error
      }
    }

  return {
    'GET /webhooks': async (session, request) => {
      const done = doneNoticeOf(request, DONE)
      return htmlResponse(webhookListPage(base, session, { hooks: await webhooks.list(session.club), done }))
    },
    'POST /webhooks': async (checked) => {
      const { session, form } = checked
      const values: WebhookFormState = { ...emptyWebhookForm(), url: form.get('url') ?? '', events: new Set(form.getAll('events')) }
      try {
        // None ticked is every type, as the API's absent `events`.
        const created = await webhooks.create({ club: session.club, url: values.url.trim(), events: values.events.size === 0 ? null : [...values.events] })
        const { secret, ...hook } = created
        return htmlResponse(webhookSecretPage(base, session, { hook, secret, rotated: false }), 201)
      } catch (error) {
        if (!isProblem(error, 'validation-failed')) throw error
        const path = error.errors?.[0]?.path ?? ''
        const words: Words = path === 'events' ? EVENTS_REFUSED : { ko: URL_REFUSED, en: error.detail ?? 'Not a valid webhook URL.' }
        values.errors.set(path === 'events' ? 'events' : 'url', words)
        return htmlResponse(webhookListPage(base, session, { hooks: await webhooks.list(session.club), form: values }), 422)
      }
    },
    'GET /webhooks/:id': async (session, request) => {
      const hook = await hookOf(session, idOf(request))
      if (!hook) return notFound(session)
      const query = new URL(request.url).searchParams
      const before = query.get('before')
      if (before !== null && !/^[1-9]\d{0,15}$/.test(before)) return notFound(session)
      const done = DONE[query.get('done') ?? ''] ?? null
      return htmlResponse(await detail(session, hook, before === null ? null : Number(before), { done }))
    },
    'POST /webhooks/:id/enabled': onHook(async (_session, hook, form) => {
      const enabled = form.get('enabled') === 'yes'
      await webhooks.update(hook.id, { enabled })
      return seeOther(`${webhookPath(base, hook.id)}?done=${enabled ? 'enabled' : 'disabled'}`)
    }),
    'POST /webhooks/:id/rotate': onHook(async (session, hook) => {
      const { secret, ...rotated } = await webhooks.rotateSecret(hook.id)
      return htmlResponse(webhookSecretPage(base, session, { hook: rotated, secret, rotated: true }))
    }),
    'POST /webhooks/:id/delete': onHook(async (session, hook, form) => {
      if (form.get('confirm') !== 'yes') return htmlResponse(await detail(session, hook, null, { errors: new Map([['delete', CONFIRM_NEEDED]]) }), 422)
      await webhooks.delete(hook.id)
      return seeOther(`${base}/webhooks?done=deleted`)
    }),
    // One delivery's event again, as a new delivery under the same webhook-id: the replay operation over that one event.
    'POST /webhooks/:id/replay': onHook(async (session, hook, form) => {
      const event = form.get('event') ?? ''
      const replayed = /^[1-9]\d{0,15}$/.test(event) ? (await webhooks.replay(hook.id, String(Number(event) - 1), event)).replayed : 0
      if (replayed === 0) return htmlResponse(await detail(session, hook, null, { errors: new Map([['replay', NOTHING_TO_REPLAY]]) }), 422)
      return seeOther(`${webhookPath(base, hook.id)}?done=replayed`)
    }),
  } satisfies Partial<ConsoleHandlers>
}
