import { Router, type IRequest } from 'itty-router'
import { ProblemError, StorageUnavailable } from '../../core/errors.ts'
import { readBody } from '../http/body.ts'
import { PasswordHasherBusy } from '../../core/ports/password-hasher.ts'
import { constantTimeEqual } from '../../core/crypto/secret-hash.ts'
import { clientBlockOf } from '../http/client-address.ts'
import { createSessionCookie } from './cookie.ts'
import { htmlResponse, scriptResponse, seeOther, stylesheetResponse } from './responses.ts'
import { ADMIN_CSS } from './styles.ts'
import { PASSKEY_JS } from './passkey-script.ts'
import { addPasskeyRoutes } from './passkeys.ts'
import { addAccountRoutes } from './account.ts'
import { INVALID_LOGIN, loginPage, messagePage, overviewPage, setupPage, type Words } from './pages.ts'
import { activityList } from './overview-activity.ts'
import { activityChart } from './activity-chart.ts'
import { html } from '../http/share-page/html.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import type { MountedSurface } from '../http/index.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import { addTemplateRoutes } from './templates.ts'
import type { ConsoleFrame, SessionForm } from './frame.ts'
import { CONSOLE_PATHS } from './console-paths.ts'
import { addIssuanceActionRoutes } from './issuance-actions.ts'
import { addIssuanceRoutes } from './issuances.ts'
import { addIssueRoutes } from './issue.ts'
import { addClientRoutes } from './clients.ts'
import { addApiKeyRoutes } from './api-keys.ts'
import { addWebhookRoutes } from './webhooks.ts'
import { addEventRoutes } from './events.ts'
import { addDesignRoutes } from './designs.ts'
import { addPreviewRoutes } from './previews.ts'
import { readMultipartForm, type PostedForm } from './multipart.ts'
import { addIssueCsvRoutes } from './issue-csv.ts'

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
const DEAD_LINK: [Words, Words] = [
  { ko: '사용할 수 없는 링크입니다', en: 'This link no longer works' },
  {
    ko: '설정 링크는 한 번, 24시간 동안만 쓸 수 있습니다. 관리자에게 새 링크를 요청하세요.',
    en: 'A setup link works once, for 24 hours. Ask for a new one.',
  },
]
const PASSWORD_ERRORS: Record<string, { field: 'password' | 'confirmation'; words: Words }> = {
  'password-too-short': { field: 'password', words: { ko: '비밀번호는 12자 이상이어야 합니다.', en: 'The password must have at least 12 characters.' } },
  'password-too-long': { field: 'password', words: { ko: '비밀번호는 256자 이하여야 합니다.', en: 'The password must have at most 256 characters.' } },
  'passwords-differ': { field: 'confirmation', words: { ko: '두 비밀번호가 다릅니다.', en: 'The two passwords differ.' } },
}

/** The overview's notice after the setup link: the password is set and the person is in. */
const SIGNED_IN_AT_SETUP: Words = { ko: '비밀번호를 설정했고 로그인되었습니다.', en: 'Your password is set, and you are signed in.' }

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

  const page = (status: number, [title, text]: [Words, Words], session: ConsoleSession | null = null, headers: Record<string, string> = {}) =>
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

  router.get('/admin.css', () => stylesheetResponse(ADMIN_CSS))
  router.get('/passkey.js', () => scriptResponse(PASSKEY_JS))
  const passkeys = admins.passkeys !== null

  router.get(
    '/',
    withSession(async (session, request) => {
      const overview = await admins.overview(session)
      if (!overview) return page(404, NOT_FOUND, session)
      const done = new URL(request.url).searchParams.get('setup') === 'done' ? SIGNED_IN_AT_SETUP : null
      return htmlResponse(overviewPage(base, session, overview, html`${activityList(base, overview.latestActivity)}${activityChart(overview.weekly)}`, done))
    }),
  )

  const frame: ConsoleFrame = {
    issuer,
    base,
    sessionOf,
    formOf,
    sessionForm,
    withSession,
    notFound: (session: ConsoleSession) => page(404, NOT_FOUND, session),
    forbidden: (session: ConsoleSession) => page(403, FORBIDDEN, session),
  }
  addTemplateRoutes(router, frame)
  addIssuanceRoutes(router, frame)
  addIssuanceActionRoutes(router, frame)
  addIssueRoutes(router, frame)
  addClientRoutes(router, frame)
  addApiKeyRoutes(router, frame)
  addWebhookRoutes(router, frame)
  addEventRoutes(router, frame)
  addPasskeyRoutes(router, frame, cookie)
  addAccountRoutes(router, frame)
  addDesignRoutes(router, frame)
  addPreviewRoutes(router, frame)
  addIssueCsvRoutes(router, frame)

  router.get('/login', async (request: IRequest) => {
    if (await sessionOf(request)) return seeOther(`${base}/`)
    const done = new URL(request.url).searchParams.get('setup') === 'done'
    const doneWords = done ? { done: { ko: '비밀번호를 설정했습니다. 로그인하세요.', en: 'Your password is set. Log in.' } } : {}
    return htmlResponse(loginPage(base, { ...doneWords, passkeys }))
  })

  router.post('/login', async (request: IRequest) => {
    const form = await formOf(request)
    if (form instanceof Response) return form
    const email = form.get('email') ?? ''
    const outcome = await admins.login({ email, password: form.get('password') ?? '', address: clientBlockOf(request) })
    if (outcome.ok) return seeOther(`${base}/`, { 'set-cookie': cookie.set(outcome.sessionId) })
    if (outcome.reason === 'locked') {
      const notice = { ko: '로그인 시도가 너무 많습니다. 잠시 후 다시 시도하세요.', en: 'Too many login attempts. Try again later.' }
      return htmlResponse(loginPage(base, { email, notice, passkeys }), 429, { 'retry-after': String(outcome.retryAfter) })
    }
    return htmlResponse(loginPage(base, { email, notice: INVALID_LOGIN, passkeys }), 401)
  })

  router.post('/logout', async (request: IRequest) => {
    const form = await formOf(request)
    if (form instanceof Response) return form
    const id = cookie.read(request)
    const session = id === null ? null : await admins.session(id)
    if (!session || id === null) return seeOther(`${base}/login`, { 'set-cookie': cookie.clear() })
    if (!constantTimeEqual(form.get('csrf') ?? '', session.csrfToken)) return page(403, FORBIDDEN, session)
    await admins.logout(id)
    return seeOther(`${base}/login`, { 'set-cookie': cookie.clear() })
  })

  router.get('/setup', async (request: IRequest) => {
    const token = new URL(request.url).searchParams.get('token') ?? ''
    const setup = await admins.setupFor(token)
    if (!setup) return page(410, DEAD_LINK)
    return htmlResponse(setupPage(base, { token, email: setup.email, passkeys }))
  })

  router.post('/setup', async (request: IRequest) => {
    const form = await formOf(request)
    if (form instanceof Response) return form
    const token = form.get('token') ?? ''
    const outcome = await admins.completeSetup({ token, password: form.get('password') ?? '', confirmation: form.get('confirmation') ?? '' })
    // Signed in as a login would sign in (a fresh session id, the same cookie): core/admins/setup.ts.
    if (outcome.ok) return seeOther(`${base}/?setup=done`, { 'set-cookie': cookie.set(outcome.sessionId) })
    if (outcome.reason === 'invalid-link') return page(410, DEAD_LINK)
    const setup = await admins.setupFor(token)
    if (!setup) return page(410, DEAD_LINK)
    const error = PASSWORD_ERRORS[outcome.reason]!
    return htmlResponse(setupPage(base, { token, email: setup.email, errors: { [error.field]: error.words }, passkeys }), 422)
  })

  // A path of the console with another method: 405, with what it allows.
  for (const [path, allow] of CONSOLE_PATHS) router.all(path, () => page(405, FORBIDDEN, null, { allow }))

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
