import { constantTimeEqual } from '../../core/crypto/secret-hash.ts'
import { clientBlockOf } from '../http/client-address.ts'
import { jsonResponse } from './responses.ts'
import { credentialProblem, FORBIDDEN_JSON, passkeyBodyOf, passkeyProblem, type PasskeyBody } from './passkey-json.ts'
import type { AdminPasskeys } from '../../core/admins/admins.ts'
import type { PasskeyRefusal } from '../../core/admins/passkey-register.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import type { Words } from './pages.ts'

const REFUSALS: Record<PasskeyRefusal, { status: number; words: Words }> = {
  'invalid-link': {
    status: 410,
    words: { ko: '사용할 수 없는 링크입니다. 관리자에게 새 링크를 요청하세요.', en: 'This link no longer works. Ask for a new one.' },
  },
  'invalid-name': {
    status: 422,
    words: { ko: '이름은 64자 이하이며 제어 문자를 쓸 수 없습니다.', en: 'A name has at most 64 characters and no control characters.' },
  },
  'too-many': { status: 422, words: { ko: '패스키는 10개까지 등록할 수 있습니다.', en: 'At most 10 passkeys can be registered.' } },
  refused: { status: 422, words: { ko: '패스키를 확인할 수 없습니다. 다시 시도하세요.', en: 'The passkey could not be verified. Try again.' } },
  exists: { status: 422, words: { ko: '이미 등록된 패스키입니다.', en: 'This passkey is registered already.' } },
}
const INVALID_LOGIN: Words = { ko: '패스키로 로그인할 수 없습니다.', en: 'The passkey did not log you in.' }
const LOCKED: Words = { ko: '로그인 시도가 너무 많습니다. 잠시 후 다시 시도하세요.', en: 'Too many login attempts. Try again later.' }
const SIGNED_OUT: Words = { ko: '로그인이 끝났습니다. 다시 로그인하세요.', en: 'You are signed out. Log in again.' }
const UNAVAILABLE: Words = { ko: '이 서버는 패스키를 지원하지 않습니다.', en: 'This server offers no passkeys.' }

const refusal = (reason: PasskeyRefusal) => passkeyProblem(REFUSALS[reason].status, reason, REFUSALS[reason].words)

/**
 * The passkey endpoints (docs/admin-console.md § Passkeys): JSON in and out, for /admin/passkey.js.
 * Every one checks `Origin` first; the account's also need the session and its CSRF token in
 * `X-CSRF-Token`. Bad input is a 4xx problem and changes nothing.
 */
export function passkeyHandlers(frame: ConsoleFrame) {
  const { issuer, base, sessionOf, cookie } = frame
  const origin = new URL(issuer.config.urls.public).origin
  const passkeys = issuer.admins.passkeys

  /** The body of a POST when the server has passkeys, or the answer instead. */
  const bodyOf = async (request: Request): Promise<{ passkeys: AdminPasskeys; body: PasskeyBody } | Response> => {
    const body = await passkeyBodyOf(request, origin)
    if (body instanceof Response) return body
    if (!passkeys) return passkeyProblem(404, 'passkeys-unavailable', UNAVAILABLE)
    return { passkeys, body }
  }
  const sessionBodyOf = async (request: Request): Promise<{ passkeys: AdminPasskeys; body: PasskeyBody; session: ConsoleSession } | Response> => {
    const checked = await bodyOf(request)
    if (checked instanceof Response) return checked
    const session = await sessionOf(request)
    if (!session) return passkeyProblem(401, 'signed-out', SIGNED_OUT)
    if (!constantTimeEqual(request.headers.get('x-csrf-token') ?? '', session.csrfToken)) return FORBIDDEN_JSON()
    return { ...checked, session }
  }

  return {
    'POST /passkeys/login/options': async (request) => {
      const checked = await bodyOf(request)
      if (checked instanceof Response) return checked
      const outcome = await checked.passkeys.loginOptions({ email: checked.body.text('email'), address: clientBlockOf(request) })
      if (!outcome.ok) return passkeyProblem(429, 'locked', LOCKED, { 'retry-after': String(outcome.retryAfter) })
      return jsonResponse(outcome.options)
    },
    'POST /passkeys/login': async (request) => {
      const checked = await bodyOf(request)
      if (checked instanceof Response) return checked
      const credential = checked.body.credential()
      const malformed = credentialProblem(credential)
      if (malformed) return malformed
      const outcome = await checked.passkeys.login({ email: checked.body.text('email'), response: credential, address: clientBlockOf(request) })
      if (outcome.ok) return jsonResponse({ location: `${base}/` }, 200, { 'set-cookie': cookie.set(outcome.sessionId) })
      if (outcome.reason === 'locked') return passkeyProblem(429, 'locked', LOCKED, { 'retry-after': String(outcome.retryAfter) })
      return passkeyProblem(401, 'invalid-login', INVALID_LOGIN)
    },
    'POST /passkeys/setup/options': async (request) => {
      const checked = await bodyOf(request)
      if (checked instanceof Response) return checked
      const outcome = await checked.passkeys.setupOptions({ token: checked.body.text('token'), name: checked.body.text('name') })
      return outcome.ok ? jsonResponse(outcome.options) : refusal(outcome.reason)
    },
    'POST /passkeys/setup': async (request) => {
      const checked = await bodyOf(request)
      if (checked instanceof Response) return checked
      const credential = checked.body.credential()
      const malformed = credentialProblem(credential)
      if (malformed) return malformed
      const { body } = checked
      const outcome = await checked.passkeys.registerAtSetup({ token: body.text('token'), name: body.text('name'), response: credential })
      return outcome.ok ? jsonResponse(outcome.passkey, 201) : refusal(outcome.reason)
    },
    'POST /account/passkeys/options': async (request) => {
      const checked = await sessionBodyOf(request)
      if (checked instanceof Response) return checked
      const outcome = await checked.passkeys.options(checked.session, checked.body.text('name'))
      return outcome.ok ? jsonResponse(outcome.options) : refusal(outcome.reason)
    },
    'POST /account/passkeys': async (request) => {
      const checked = await sessionBodyOf(request)
      if (checked instanceof Response) return checked
      const credential = checked.body.credential()
      const malformed = credentialProblem(credential)
      if (malformed) return malformed
      const outcome = await checked.passkeys.register(checked.session, { name: checked.body.text('name'), response: credential })
      return outcome.ok ? jsonResponse(outcome.passkey, 201) : refusal(outcome.reason)
    },
  } satisfies Partial<ConsoleHandlers>
}
