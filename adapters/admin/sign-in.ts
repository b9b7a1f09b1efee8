import type { IRequest } from 'itty-router'
import { constantTimeEqual } from '../../core/crypto/secret-hash.ts'
import { clientBlockOf } from '../http/client-address.ts'
import { htmlResponse, scriptResponse, seeOther, stylesheetResponse } from './responses.ts'
import { ADMIN_CSS } from './styles.ts'
import { PASSKEY_JS } from './passkey-script.ts'
import { INVALID_LOGIN, loginPage, setupPage, type Words } from './pages.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'

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

/**
 * The pages before a session (docs/admin-console.md § Sessions): the style sheet and the passkey script,
 * login, logout and the one-time setup link. Each POST is a form from the public origin (`formOf`);
 * logout also checks the session's CSRF token, and clears the cookie whatever it finds.
 */
export function signInHandlers({ issuer, base, sessionOf, formOf, forbidden, message, cookie }: ConsoleFrame) {
  const admins = issuer.admins
  const passkeys = admins.passkeys !== null

  return {
    'GET /admin.css': () => stylesheetResponse(ADMIN_CSS),
    'GET /passkey.js': () => scriptResponse(PASSKEY_JS),

    'GET /login': async (request: IRequest) => {
      if (await sessionOf(request)) return seeOther(`${base}/`)
      const done = new URL(request.url).searchParams.get('setup') === 'done'
      const doneWords = done ? { done: { ko: '비밀번호를 설정했습니다. 로그인하세요.', en: 'Your password is set. Log in.' } } : {}
      return htmlResponse(loginPage(base, { ...doneWords, passkeys }))
    },

    'POST /login': async (request: IRequest) => {
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
    },

    'POST /logout': async (request: IRequest) => {
      const form = await formOf(request)
      if (form instanceof Response) return form
      const id = cookie.read(request)
      const session = id === null ? null : await admins.session(id)
      if (!session || id === null) return seeOther(`${base}/login`, { 'set-cookie': cookie.clear() })
      if (!constantTimeEqual(form.get('csrf') ?? '', session.csrfToken)) return forbidden(session)
      await admins.logout(id)
      return seeOther(`${base}/login`, { 'set-cookie': cookie.clear() })
    },

    'GET /setup': async (request: IRequest) => {
      const token = new URL(request.url).searchParams.get('token') ?? ''
      const setup = await admins.setupFor(token)
      if (!setup) return message(410, DEAD_LINK)
      return htmlResponse(setupPage(base, { token, email: setup.email, passkeys }))
    },

    'POST /setup': async (request: IRequest) => {
      const form = await formOf(request)
      if (form instanceof Response) return form
      const token = form.get('token') ?? ''
      const outcome = await admins.completeSetup({ token, password: form.get('password') ?? '', confirmation: form.get('confirmation') ?? '' })
      // Signed in as a login would sign in (a fresh session id, the same cookie): core/admins/setup.ts.
      if (outcome.ok) return seeOther(`${base}/?setup=done`, { 'set-cookie': cookie.set(outcome.sessionId) })
      if (outcome.reason === 'invalid-link') return message(410, DEAD_LINK)
      const setup = await admins.setupFor(token)
      if (!setup) return message(410, DEAD_LINK)
      const error = PASSWORD_ERRORS[outcome.reason]!
      return htmlResponse(setupPage(base, { token, email: setup.email, errors: { [error.field]: error.words }, passkeys }), 422)
    },
  } satisfies Partial<ConsoleHandlers>
}
