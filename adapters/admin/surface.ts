import { Router } from 'itty-router'
import { ProblemError, StorageUnavailable } from '../../core/errors.ts'
import { readBody } from '../http/body.ts'
import { PasswordHasherBusy } from '../../core/ports/password-hasher.ts'
import { constantTimeEqual } from '../../core/crypto/secret-hash.ts'
import { createSessionCookie } from './cookie.ts'
import { htmlResponse, seeOther } from './responses.ts'
import { messagePage, type Words } from './pages.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { MountedSurface } from '../http/index.ts'
import type { ConsoleFrame, SessionForm } from './frame.ts'
import { readMultipartForm, type PostedForm } from './multipart.ts'
import { mountConsoleRoutes } from './mount.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import { signInHandlers } from './sign-in.ts'
import { overviewHandlers } from './overview.ts'
import { templateHandlers } from './templates.ts'
import { previewHandlers } from './previews.ts'
import { issueHandlers } from './issue.ts'
import { issueCsvHandlers } from './issue-csv.ts'
import { issuanceHandlers } from './issuances.ts'
import { issuanceFileHandlers } from './issuance-file.ts'
import { issuanceActionHandlers } from './issuance-actions.ts'
import { reissueHandlers } from './reissues.ts'
import { clientHandlers } from './clients.ts'
import { apiKeyHandlers } from './api-keys.ts'
import { webhookHandlers } from './webhooks.ts'
import { eventHandlers } from './events.ts'
import { designHandlers } from './designs.ts'
import { accountHandlers } from './account.ts'
import { passkeyHandlers } from './passkeys.ts'

/** A form body larger than this is refused unread: the sign-in forms hold a few short fields. */
const MAX_FORM_BYTES = 16 * 1024

const NOT_FOUND: [Words, Words] = [
  { ko: '찾을 수 없는 페이지입니다', en: 'Page not found' },
  { ko: '주소를 확인하세요.', en: 'Check the address.' },
]
const FORBIDDEN: [Words, Words] = [
  { ko: '요청을 처리할 수 없습니다', en: 'Request refused' },
  { ko: '페이지를 새로 고친 뒤 다시 시도하세요.', en: 'Reload the page and try again.' },
]
const BUSY: [Words, Words] = [
  { ko: '잠시 후 다시 시도하세요', en: 'Try again in a moment' },
  { ko: '지금 로그인 요청이 너무 많습니다.', en: 'Too many sign-ins are being checked right now.' },
]
/** The console as adapters/http/ mounts it: whatever the path under `/admin`, the console answers. */
export type AdminSurface = MountedSurface

/**
 * The staff console at `{public_url}/admin/` (docs/admin-console.md): HTML pages and plain forms that work
 * without JavaScript. Every page behind login gets the session's club and acts for no other: no club is
 * ever read from the URL or a form. Every POST must come from the public origin (`Origin`, a missing one
 * refused), and every POST of a session also carries the session's CSRF token.
 */
export function createAdminSurface(issuer: CoreIssuer, { onError }: { onError: (error: unknown, request: Request) => void }): AdminSurface {
  const publicUrl = new URL(issuer.config.urls.public)
  const base = `${publicUrl.pathname.replace(/\/+$/, '')}/admin`
  const origin = publicUrl.origin
  const cookie = createSessionCookie({ secure: publicUrl.protocol === 'https:', consolePath: base })
  const admins = issuer.admins

  const page = (status: number, [title, text]: readonly [Words, Words], session: ConsoleSession | null = null, headers: Record<string, string> = {}) =>
    htmlResponse(messagePage(base, title, text, session), status, headers)
  const sessionOf = async (request: Request) => {
    const id = cookie.read(request)
    return id === null ? null : admins.session(id)
  }
  /**
   * The body of a POST from the public origin, or the refusal to send instead: url-encoded, or multipart
   * where a page takes files (`multipart`). The Origin is checked before anything is read.
   */
  const bodyOf = async (request: Request, maxBytes: number, multipart: boolean, tooLarge?: Words): Promise<PostedForm | Response> => {
    const refusedAsTooLarge = () => page(413, tooLarge ? [FORBIDDEN[0], tooLarge] : FORBIDDEN)
    if (request.headers.get('origin') !== origin) return page(403, FORBIDDEN)
    const type = (request.headers.get('content-type') ?? '').toLowerCase()
    if (multipart && type.startsWith('multipart/form-data')) {
      const posted = await readMultipartForm(request, maxBytes)
      if (posted === 'too-large') return refusedAsTooLarge()
      if (posted === 'malformed') return page(400, FORBIDDEN)
      return posted
    }
    if (!type.startsWith('application/x-www-form-urlencoded')) return page(415, FORBIDDEN)
    // Counted as it arrives: a chunked body without a Content-Length is held to the limit too.
    let bytes: Uint8Array
    try {
      bytes = await readBody(request, maxBytes)
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'payload-too-large') return refusedAsTooLarge()
      throw error
    }
    return { form: new URLSearchParams(new TextDecoder().decode(bytes)), files: new Map() }
  }
  const formOf = async (request: Request, maxBytes = MAX_FORM_BYTES): Promise<URLSearchParams | Response> => {
    const posted = await bodyOf(request, maxBytes, false)
    return posted instanceof Response ? posted : posted.form
  }

  const sessionForm = async (
    request: Request,
    maxBytes = MAX_FORM_BYTES,
    { multipart = false, tooLarge }: { multipart?: boolean; tooLarge?: Words } = {},
  ): Promise<SessionForm | Response> => {
    const posted = await bodyOf(request, maxBytes, multipart, tooLarge)
    if (posted instanceof Response) return posted
    const session = await sessionOf(request)
    if (!session) return seeOther(`${base}/login`)
    if (!constantTimeEqual(posted.form.get('csrf') ?? '', session.csrfToken)) return page(403, FORBIDDEN, session)
    return { session, ...posted }
  }

  const withSession: ConsoleFrame['withSession'] = (handler) => async (request) => {
    const session = await sessionOf(request)
    return session ? handler(session, request) : seeOther(`${base}/login`)
  }

  const frame: ConsoleFrame = {
    issuer,
    base,
    sessionOf,
    formOf,
    sessionForm,
    withSession,
    notFound: (session: ConsoleSession) => page(404, NOT_FOUND, session),
    forbidden: (session: ConsoleSession) => page(403, FORBIDDEN, session),
    message: page,
    cookie,
  }
  const router = Router({
    base,
    catch: (error: unknown, request: Request) => {
      if (error instanceof StorageUnavailable) return page(503, FORBIDDEN, null, { 'retry-after': '5' })
      if (error instanceof PasswordHasherBusy) return page(503, BUSY, null, { 'retry-after': '2' })
      onError(error, request)
      return page(500, FORBIDDEN)
    },
    finally: [(response: Response | undefined) => response ?? page(404, NOT_FOUND)],
  })
  // Every row of the route table behind its guard; another method of a console path: 405, with what it allows.
  mountConsoleRoutes(router, consoleHandlers(frame), frame, (allow) => page(405, FORBIDDEN, null, { allow }))

  return {
    handles(url) {
      const { pathname } = new URL(url)
      return pathname === base || pathname.startsWith(`${base}/`)
    },
    fetch(request) {
      if (new URL(request.url).pathname === base) return Promise.resolve(seeOther(`${base}/`))
      return router.fetch(request)
    },
  }
}

/** Every page module's handlers, one for each row of the console's route table (route-table.ts). */
function consoleHandlers(frame: ConsoleFrame): ConsoleHandlers {
  return {
    ...signInHandlers(frame),
    ...overviewHandlers(frame),
    ...templateHandlers(frame),
    ...previewHandlers(frame),
    ...issueHandlers(frame),
    ...issueCsvHandlers(frame),
    ...issuanceHandlers(frame),
    ...issuanceFileHandlers(frame),
    ...issuanceActionHandlers(frame),
    ...reissueHandlers(frame),
    ...clientHandlers(frame),
    ...apiKeyHandlers(frame),
    ...webhookHandlers(frame),
    ...eventHandlers(frame),
    ...designHandlers(frame),
    ...accountHandlers(frame),
    ...passkeyHandlers(frame),
  }
}
