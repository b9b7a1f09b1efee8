import type { IRequest } from 'itty-router'
import { htmlResponse, seeOther } from './responses.ts'
import { clientDetailPage, clientListPage, clientSecretPage } from './client-pages.ts'
import { CONFIRM_NEEDED } from './integration-parts.ts'
import { isProblem } from './is-problem.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { ClientView } from '../../core/clients/list.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import type { Words } from './pages.ts'
import { doneNoticeOf, idParamOf } from './request-values.ts'

const DONE: Record<string, Words> = {
  deleted: { ko: '클라이언트를 삭제했습니다. 그 토큰은 더 이상 쓸 수 없습니다.', en: 'Client deleted. Its tokens no longer work.' },
}
const NO_SCOPE: Words = { ko: '권한을 하나 이상 고르세요.', en: 'Choose at least one scope.' }

/** A client id of a path (`cc_` and 24 hex digits): anything else is simply not found. */
const idOf = (request: IRequest) => idParamOf(request, /^cc_[0-9a-f]{24}$/)

/**
 * The API clients pages (docs/admin-console.md § API clients): the club's OAuth 2.0 clients, created,
 * rotated and deleted on the operations the admin CLI calls (`issuer.clients.*`), for the session's club
 * only. A secret is on the answer to the form that made it and on no other page.
 */
export function clientHandlers({ issuer, base, notFound }: ConsoleFrame) {
  const clients = issuer.clients
  const tokenUrl = `${issuer.config.urls.auth.replace(/\/+$/, '')}/token`

  /** A client of the session's club, or `null`: another club's id is not found, as an unknown one. */
  const clientOf = async (session: ConsoleSession, id: string | null): Promise<ClientView | null> =>
    id === null ? null : ((await clients.list(session.club)).find((client) => client.client_id === id) ?? null)

  return {
    'GET /clients': async (session, request) => {
      const done = doneNoticeOf(request, DONE)
      return htmlResponse(clientListPage(base, session, { clients: await clients.list(session.club), done }))
    },
    'POST /clients': async (checked) => {
      const { session, form } = checked
      const scopes = form.getAll('scope')
      try {
        // No scope ticked is the core's refusal too: a client that may do nothing is not one.
        const created = await clients.create({ club: session.club, scopes })
        const page = clientSecretPage(base, session, {
          clientId: created.client_id,
          secret: created.client_secret,
          scopes: created.scopes,
          tokenUrl,
          rotated: false,
        })
        return htmlResponse(page, 201)
      } catch (error) {
        if (!isProblem(error, 'validation-failed')) throw error
        const page = clientListPage(base, session, { clients: await clients.list(session.club), chosen: new Set(scopes), error: NO_SCOPE })
        return htmlResponse(page, 422)
      }
    },
    'GET /clients/:id': async (session, request) => {
      const client = await clientOf(session, idOf(request))
      if (!client) return notFound(session)
      return htmlResponse(clientDetailPage(base, session, { client }))
    },
    'POST /clients/:id/rotate': async (checked, request) => {
      const { session, form } = checked
      const client = await clientOf(session, idOf(request))
      if (!client) return notFound(session)
      if (form.get('confirm') !== 'yes') return htmlResponse(clientDetailPage(base, session, { client, errors: new Map([['rotate', CONFIRM_NEEDED]]) }), 422)
      try {
        const rotated = await clients.rotate(client.client_id)
        return htmlResponse(
          clientSecretPage(base, session, { clientId: rotated.client_id, secret: rotated.client_secret, scopes: client.scopes, tokenUrl, rotated: true }),
        )
      } catch (error) {
        // Deleted since it was read.
        if (isProblem(error, 'client-not-found')) return notFound(session)
        throw error
      }
    },
    'POST /clients/:id/delete': async (checked, request) => {
      const { session, form } = checked
      const client = await clientOf(session, idOf(request))
      if (!client) return notFound(session)
      if (form.get('confirm') !== 'yes') return htmlResponse(clientDetailPage(base, session, { client, errors: new Map([['delete', CONFIRM_NEEDED]]) }), 422)
      try {
        await clients.delete(client.client_id)
      } catch (error) {
        if (!isProblem(error, 'client-not-found')) throw error
      }
      return seeOther(`${base}/clients?done=deleted`)
    },
  } satisfies Partial<ConsoleHandlers>
}
