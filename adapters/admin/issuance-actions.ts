import { MAX_REVOKE_IDS } from '../../core/issuances/revoke-many.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import { htmlResponse, seeOther } from './responses.ts'
import { bulkConfirmPage, bulkRefusedPage, bulkResultPage, type BulkChoice } from './bulk-revoke-pages.ts'
import { deliverySection } from './delivery-section.ts'
import { issuancesOfFilter } from './filter-choice.ts'
import { issuanceDetailPage, issuancePath } from './issuance-pages.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import type { Words } from './pages.ts'
import { isProblem } from './is-problem.ts'
import { numericIdOf } from './request-values.ts'

/** A bulk form carries up to 1,000 ids of 16 digits each: more than a page's 16 KiB. */
const BULK_FORM_BYTES = 64 * 1024
const ID = /^[1-9]\d{0,15}$/
const CONFIRM_NEEDED: Words = { ko: '취소하려면 확인란을 선택하세요.', en: 'Tick the box to confirm the revocation.' }
const REASON_REFUSED: Words = {
  ko: '사유는 500자 이하여야 하며 쓸 수 없는 문자가 없어야 합니다.',
  en: 'The reason has at most 500 characters, none of them not allowed.',
}
const NONE_CHOSEN: Words = { ko: '취소할 발급을 고르세요.', en: 'Choose the issuances to revoke.' }
const TOO_MANY: Words = {
  ko: `조건에 맞는 발급이 ${MAX_REVOKE_IDS.toLocaleString('en')}개보다 많습니다. 조건을 좁히세요.`,
  en: `More than ${MAX_REVOKE_IDS.toLocaleString('en')} issuances match: narrow the filter.`,
}
const REVOKED: Words = { ko: '취소된 발급에는 메일을 보내지 않습니다.', en: 'A revoked issuance is not mailed.' }

/**
 * The console's resend and bulk revoke (docs/admin-console.md § Issuances), on the operations the API
 * calls (`issuer.issuances.notify`, `revokeMany`), for the session's club only; each a form that works
 * without script.
 */
export function issuanceActionHandlers(frame: ConsoleFrame) {
  const { issuer, base, notFound } = frame
  const issuances = issuer.issuances

  /** The rows ticked on the list: their ids, and the names of the first ten (another club's id has none and is left out). */
  async function ofRows(session: ConsoleSession, form: URLSearchParams): Promise<BulkChoice> {
    const ids = tickedIds(form)
    const sample: BulkChoice['sample'] = []
    for (const id of ids.slice(0, 10)) {
      try {
        sample.push({ id, name: (await issuances.read(session.club, id)).recipient.name })
      } catch (error) {
        if (!isProblem(error, 'issuance-not-found')) throw error
      }
    }
    return { ids, sample }
  }

  /**
   * Every issuance of the list's filter that is not revoked yet, as the list finds them, page by page;
   * `null` when more than MAX_REVOKE_IDS match.
   */
  async function ofFilter(session: ConsoleSession, form: URLSearchParams): Promise<BulkChoice | null> {
    const chosen = await issuancesOfFilter(issuances, session.club, form, MAX_REVOKE_IDS)
    return chosen === null ? null : { ids: chosen.map((item) => item.id), sample: chosen.slice(0, 10) }
  }

  return {
    'POST /issuances/:id/notify': async (checked, request) => {
      const { session } = checked
      const id = numericIdOf(request, 16)
      if (id === null) return notFound(session)
      try {
        await issuances.notify(session.club, id)
      } catch (error) {
        if (isProblem(error, 'issuance-not-found')) return notFound(session)
        if (!isProblem(error, 'rate-limited', 'issuance-revoked')) throw error
        const hours = Math.ceil(Number(error.extra?.retryAfter ?? 0) / 3600)
        const why: Words =
          error.code === 'issuance-revoked'
            ? REVOKED
            : { ko: `24시간에 3번까지 보낼 수 있습니다. 약 ${hours}시간 뒤에 다시 보내세요.`, en: `Up to 3 times in 24 hours: try again in about ${hours} h.` }
        const detail = await issuances.read(session.club, id)
        const delivery = deliverySection(base, session, detail, await issuances.delivery(session.club, id), why)
        return htmlResponse(issuanceDetailPage(base, session, { detail, delivery }), error.code === 'rate-limited' ? 429 : 409)
      }
      return seeOther(`${issuancePath(base, id)}?done=notified`)
    },
    'POST /issuances/revoke': {
      body: { maxBytes: BULK_FORM_BYTES },
      handle: async (checked) => {
        const { session, form } = checked
        if (form.get('step') !== 'revoke') {
          const choice = form.get('scope') === 'filter' ? await ofFilter(session, form) : await ofRows(session, form)
          if (choice === null) return htmlResponse(bulkRefusedPage(base, session, TOO_MANY), 422)
          if (choice.ids.length === 0) return htmlResponse(bulkRefusedPage(base, session, NONE_CHOSEN), 422)
          return htmlResponse(bulkConfirmPage(base, session, choice))
        }
        const ids = tickedIds(form)
        if (ids.length === 0) return htmlResponse(bulkRefusedPage(base, session, NONE_CHOSEN), 422)
        const reason = (form.get('reason') ?? '').replace(/\r\n?/g, '\n')
        const again = async (errors: Map<string, Words>) => htmlResponse(bulkConfirmPage(base, session, await ofRows(session, form), { reason, errors }), 422)
        if (form.get('confirm') !== 'yes') return again(new Map([['confirm', CONFIRM_NEEDED]]))
        try {
          const { result } = await issuances.revokeMany(session.club, { issuanceIds: ids, ...(reason.trim() === '' ? {} : { reason }) })
          return htmlResponse(bulkResultPage(base, session, result))
        } catch (error) {
          if (!isProblem(error, 'validation-failed')) throw error
          return again(new Map([['reason', REASON_REFUSED]]))
        }
      },
    },
  } satisfies Partial<ConsoleHandlers>
}

/** The issuance ids ticked on the list's form, each once, at most as many as one bulk action takes. */
function tickedIds(form: URLSearchParams): number[] {
  return [
    ...new Set(
      form
        .getAll('id')
        .filter((id) => ID.test(id))
        .map(Number),
    ),
  ].slice(0, MAX_REVOKE_IDS)
}
