import type { IRequest } from 'itty-router'
import { htmlResponse, seeOther } from './responses.ts'
import { issuanceDetailPage, issuancePath } from './issuance-pages.ts'
import { MAX_REISSUE_IDS } from '../../core/reissues/schema.ts'
import type { ReissueFormState } from './reissue-section.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import { issuancesOfFilter } from './filter-choice.ts'
import type { Words } from './pages.ts'
import { isProblem } from './is-problem.ts'
import { numericIdOf } from './request-values.ts'

const FIELD_WORDS: Record<string, Words> = {
  'name required': { ko: '이름을 입력하세요.', en: 'Enter a name.' },
  'name too-long': { ko: '이름은 200자 이하여야 합니다.', en: 'A name has at most 200 characters.' },
  'email invalid-email': { ko: '올바른 이메일 주소가 아닙니다.', en: 'Not a valid e-mail address.' },
  'expiresAt expires-at-in-past': { ko: '만료일은 앞으로의 날짜여야 합니다.', en: 'The expiry must be in the future.' },
  'expiresAt invalid-date-time': { ko: '올바른 날짜가 아닙니다.', en: 'Not a valid date.' },
  'reason too-long': { ko: '사유는 500자 이하여야 합니다.', en: 'The reason has at most 500 characters.' },
}
const OTHER: Words = { ko: '올바른 값이 아닙니다.', en: 'Not a valid value.' }
/** The form's field of an API member. */
const FIELD_OF: Record<string, string> = { name: 'name', email: 'email', expiresAt: 'expiresOn', reason: 'reason' }

const idOf = (request: IRequest) => numericIdOf(request, 16)
/** A date of the form (`YYYY-MM-DD`) as the expiry: the end of that day, UTC; `null` for an empty field. */
const expiryOf = (day: string): string | null => (day === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59Z` : day)

/**
 * Reissue in the staff console (docs/admin-console.md § Reissue): the form on an issuance's page, and the
 * renewal of chosen rows of the list, on the operations the API's routes call.
 */
export function reissueHandlers(frame: ConsoleFrame) {
  const { issuer, base, notFound } = frame

  return {
    'POST /issuances/:id/reissue': async (checked, request) => {
      const { session, form } = checked
      const id = idOf(request)
      if (id === null) return notFound(session)
      const typed: ReissueFormState = {
        name: (form.get('name') ?? '').trim(),
        email: (form.get('email') ?? '').trim(),
        expiresOn: (form.get('expiresOn') ?? '').trim(),
        reason: (form.get('reason') ?? '').replace(/\r\n?/g, '\n'),
        mail: form.get('mode') === 'email',
        currentTemplate: form.get('template') === 'current',
        errors: new Map(),
      }
      try {
        const { detail } = await issuer.issuances.reissue(session.club, id, {
          name: typed.name,
          email: typed.email,
          expiresAt: expiryOf(typed.expiresOn),
          mode: typed.mail ? 'email' : 'none',
          ...(typed.reason.trim() === '' ? {} : { reason: typed.reason }),
          ...(typed.currentTemplate ? { template: 'current' as const } : {}),
        })
        return seeOther(`${issuancePath(base, detail.id)}?done=reissued`)
      } catch (error) {
        if (isProblem(error, 'issuance-not-found')) return notFound(session)
        if (isProblem(error, 'issuance-revoked')) return seeOther(issuancePath(base, id))
        if (!isProblem(error, 'validation-failed')) throw error
        for (const { message, path } of error.errors ?? []) {
          const field = FIELD_OF[path.split('.')[0] ?? ''] ?? 'name'
          typed.errors.set(field, FIELD_WORDS[`${path} ${message}`] ?? OTHER)
        }
        // Core checks the form before the club: another club's issuance with a bad form is not found, as with a good one.
        const detail = await issuer.issuances.read(session.club, id).catch((readError: unknown) => {
          if (isProblem(readError, 'issuance-not-found')) return null
          throw readError
        })
        if (!detail) return notFound(session)
        return htmlResponse(issuanceDetailPage(base, session, { detail, reissue: typed }), 422)
      }
    },
    'POST /issuances/renew': async (checked) => {
      const { session, form } = checked
      // The rows chosen, or every row of the list's filter (the bulk form's one choice, as for revoking).
      const ofFilter = form.get('scope') === 'filter' ? await issuancesOfFilter(issuer.issuances, session.club, form, MAX_REISSUE_IDS) : []
      if (ofFilter === null) return seeOther(`${base}/issuances?done=too-many-to-renew`)
      const ids =
        form.get('scope') === 'filter'
          ? ofFilter.map((item) => item.id)
          : form
              .getAll('id')
              .filter((value) => /^[1-9]\d{0,15}$/.test(value))
              .slice(0, MAX_REISSUE_IDS)
              .map(Number)
      const expiresOn = (form.get('expiresOn') ?? '').trim()
      // Without a row, a date or the confirmation nothing is renewed: back to the list, which says nothing happened.
      if (ids.length === 0 || expiresOn === '' || form.get('renewConfirm') !== 'yes') return seeOther(`${base}/issuances?done=not-renewed`)
      try {
        const { result } = await issuer.issuances.reissueMany(session.club, { issuanceIds: ids, expiresAt: expiryOf(expiresOn) })
        return seeOther(`${base}/issuances?done=renewed&count=${result.summary.ok}`)
      } catch (error) {
        if (!isProblem(error, 'validation-failed')) throw error
        return seeOther(`${base}/issuances?done=not-renewed`)
      }
    },
  } satisfies Partial<ConsoleHandlers>
}
