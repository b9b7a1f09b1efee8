import { htmlResponse, seeOther } from './responses.ts'
import { accountPage } from './account-page.ts'
import type { ConsoleFrame } from './frame.ts'
import type { Words } from './pages.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import { doneNoticeOf } from './request-values.ts'

const DONE: Record<string, Words> = {
  added: { ko: '패스키를 추가했습니다.', en: 'Passkey added.' },
  removed: { ko: '패스키를 삭제했습니다. 이제 그 패스키로는 로그인할 수 없습니다.', en: 'Passkey removed. It no longer logs you in.' },
}
const CONFIRM_NEEDED: Words = { ko: '삭제하려면 확인란을 선택하세요.', en: 'Tick the box to confirm the removal.' }

/**
 * The account page (docs/admin-console.md § Passkeys): the session admin's passkeys, and removing one
 * with a ticked confirmation. Another admin's passkey id, like an unknown one, is 404 and nothing changes.
 */
export function accountHandlers({ issuer, base, notFound }: ConsoleFrame) {
  const passkeys = issuer.admins.passkeys

  return {
    'GET /account': async (session, request) => {
      const done = doneNoticeOf(request, DONE)
      return htmlResponse(accountPage(base, session, { passkeys: passkeys ? await passkeys.list(session) : null, done }))
    },

    'POST /account/passkeys/:id/remove': async ({ session, form }, request) => {
      const id = request.params['id'] ?? ''
      if (!passkeys) return notFound(session)
      const list = await passkeys.list(session)
      if (!list.some((passkey) => passkey.id === id)) return notFound(session)
      if (form.get('confirm') !== 'yes') {
        return htmlResponse(accountPage(base, session, { passkeys: list, refused: { id, words: CONFIRM_NEEDED } }), 422)
      }
      if (!(await passkeys.remove(session, id))) return notFound(session)
      return seeOther(`${base}/account?done=removed`)
    },
  } satisfies Partial<ConsoleHandlers>
}
