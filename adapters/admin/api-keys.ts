import type { IRequest } from 'itty-router'
import { htmlResponse, seeOther } from './responses.ts'
import { apiKeyCreatedPage, apiKeyDetailPage, apiKeyListPage, apiKeyPath } from './api-key-pages.ts'
import { CONFIRM_NEEDED } from './integration-parts.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { ApiKeyView } from '../../core/api-keys/list.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import type { Words } from './pages.ts'
import { doneNoticeOf, idParamOf } from './request-values.ts'

const DONE: Record<string, Words> = {
  revoked: { ko: '키를 폐기했습니다. 이 키로 보낸 요청은 거절됩니다.', en: 'Key revoked. Requests with it are refused.' },
}

/** A key id of a path (16 hex digits): anything else is simply not found. */
const idOf = (request: IRequest) => idParamOf(request, /^[0-9a-f]{16}$/)

/**
 * The API keys pages (docs/admin-console.md § API keys): the club's legacy API keys, created and revoked
 * on the operations the admin CLI calls (`issuer.legacy.*`), for the session's club only. A key is on the
 * answer to the create and on no other page.
 */
export function apiKeyHandlers({ issuer, base, notFound }: ConsoleFrame) {
  const legacy = issuer.legacy
  const endpoint = `${issuer.config.urls.legacyBase.replace(/\/+$/, '')}/open-api/achievements/forms`
  const keysOf = async (session: ConsoleSession) => (await legacy.listApiKeys(session.club)).api_keys
  /** A key of the session's club, or `null`: another club's id is not found, as an unknown one. */
  const keyOf = async (session: ConsoleSession, id: string | null): Promise<ApiKeyView | null> =>
    id === null ? null : ((await keysOf(session)).find((key) => key.id === id) ?? null)

  return {
    'GET /api-keys': async (session) => {
      return htmlResponse(apiKeyListPage(base, session, { keys: await keysOf(session) }))
    },
    'POST /api-keys': async (checked) => {
      const { session } = checked
      const { api_key } = await legacy.createApiKey(session.club)
      const id = /^cck_([0-9a-f]{16})\./.exec(api_key)![1]!
      return htmlResponse(apiKeyCreatedPage(base, session, { apiKey: api_key, id, endpoint }), 201)
    },
    'GET /api-keys/:id': async (session, request) => {
      const key = await keyOf(session, idOf(request))
      if (!key) return notFound(session)
      const done = doneNoticeOf(request, DONE)
      return htmlResponse(apiKeyDetailPage(base, session, { key, done }))
    },
    'POST /api-keys/:id/revoke': async (checked, request) => {
      const { session, form } = checked
      const key = await keyOf(session, idOf(request))
      if (!key) return notFound(session)
      if (key.revokedAt !== null) return seeOther(apiKeyPath(base, key.id))
      if (form.get('confirm') !== 'yes') return htmlResponse(apiKeyDetailPage(base, session, { key, error: CONFIRM_NEEDED }), 422)
      await legacy.revokeApiKey(key.id)
      return seeOther(`${apiKeyPath(base, key.id)}?done=revoked`)
    },
  } satisfies Partial<ConsoleHandlers>
}
