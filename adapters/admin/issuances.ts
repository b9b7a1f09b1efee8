import type { IRequest } from 'itty-router'
import { htmlResponse, seeOther } from './responses.ts'
import { deliverySection } from './delivery-section.ts'
import { issuanceDetailPage, issuanceListPage, issuancePath, type IssuanceFilters } from './issuance-pages.ts'
import { SEARCH_FIELDS, SEARCH_TERM_MAX, type SearchField } from '../../core/issuances/search.ts'
import { ISSUANCE_STATUSES, type IssuanceStatus } from '../../core/issuances/present.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { IssuanceDetail } from '../../core/issuances/present.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import type { Words } from './pages.ts'
import { isProblem } from './is-problem.ts'
import { doneNoticeOf, numericIdOf } from './request-values.ts'

const DONE: Record<string, Words> = {
  issued: { ko: '발급했습니다.', en: 'Issued.' },
  revoked: { ko: '발급을 취소했습니다. 검증 결과가 취소됨으로 바뀌었습니다.', en: 'Revoked. Verification now shows it revoked.' },
  reissued: { ko: '다시 발급했습니다. 새 버전은 곧 서명됩니다.', en: 'Reissued. The new version is signed shortly.' },
  notified: { ko: '메일을 다시 보내도록 넣었습니다. 아래에 결과가 나타납니다.', en: 'The mail is on its way again; its outcome appears below.' },
}
/** What a renewal of the list's rows did (adapters/admin/reissues.ts). */
const LIST_DONE: Record<string, Words> = {
  renewed: { ko: '갱신했습니다. 새 버전은 곧 서명됩니다.', en: 'Renewed. The new versions are signed shortly.' },
  'not-renewed': {
    ko: '갱신하지 않았습니다. 발급, 새 만료일, 확인란을 모두 고르세요.',
    en: 'Not renewed: choose issuances, a new expiry date and tick the box.',
  },
  'too-many-to-renew': {
    ko: '조건에 맞는 발급이 1,000개보다 많아 갱신하지 않았습니다. 조건을 좁히세요.',
    en: 'Not renewed: more than 1,000 issuances match. Narrow the filter.',
  },
}
const CONFIRM_NEEDED: Words = { ko: '취소하려면 확인란을 선택하세요.', en: 'Tick the box to confirm the revocation.' }
const REASON_WORDS: Record<string, Words> = {
  'too-long': { ko: '사유는 500자 이하여야 합니다.', en: 'The reason has at most 500 characters.' },
  'control-character': { ko: '사유에 쓸 수 없는 문자가 있습니다.', en: 'The reason holds a character that is not allowed.' },
}
const OTHER_REASON: Words = { ko: '올바른 사유가 아닙니다.', en: 'Not a valid reason.' }
/** The list's refused filters, by `path code` of the search's validation errors. */
const FILTER_WORDS: Record<string, Words> = {
  'q too-long': { ko: `검색어는 ${SEARCH_TERM_MAX}자 이하여야 합니다.`, en: `A search has at most ${SEARCH_TERM_MAX} characters.` },
  'by unknown-search-field': { ko: '이름, 이메일, 외부 ID 중에서 고르세요.', en: 'Choose name, e-mail or external id.' },
  'status unknown-status': { ko: '목록에 있는 상태를 고르세요.', en: 'Choose a status of the list.' },
}

/** An issuance id of a path: digits only, so that anything else is simply not found. */
const idOf = (request: IRequest) => numericIdOf(request, 16)

/**
 * The Issuances pages (docs/admin-console.md § Issuances): the list, filtered by template and status and
 * searched by recipient, and an
 * issuance's page with its files and revoke form, on the operations the API's routes call (`issuer.issuances.*`),
 * for the session's club only.
 */
export function issuanceHandlers(frame: ConsoleFrame) {
  const { issuer, base, notFound } = frame
  const issuances = issuer.issuances
  /** Whether the club has this template; the 100 in the filter's choices are not all of them. */
  async function isClubTemplate(club: string, id: number): Promise<boolean> {
    try {
      await issuer.achievements.read(club, id)
      return true
    } catch (error) {
      if (isProblem(error, 'achievement-not-found')) return false
      throw error
    }
  }

  /** An issuance of the session's club, or `null`: another club's id is not found, as an unknown one. */
  async function readIssuance(session: ConsoleSession, id: number | null): Promise<IssuanceDetail | null> {
    if (id === null) return null
    try {
      return await issuances.read(session.club, id)
    } catch (error) {
      if (isProblem(error, 'issuance-not-found')) return null
      throw error
    }
  }

  return {
    'GET /issuances': async (session, request) => {
      const query = new URL(request.url).searchParams
      // The filters as sent; the term is personal data, so it stays in this page and its links (never a log).
      const sent = {
        cursor: query.get('cursor'),
        achievementId: query.get('achievementId') || null,
        status: query.get('status') || null,
        q: query.get('q'),
        by: query.get('by') || null,
        // The boxes send one value each when ticked; any other value is refused by the search like a bad status.
        expiring: query.get('expiring') || null,
        claimed: query.get('claimed') || null,
      }
      // The filter's choices: the club's newest 100 templates (a club has tens); an older one still filters by its id.
      const templates = (await issuer.achievements.list(session.club, { limit: '100' })).data
      const filters: IssuanceFilters = {
        achievementId: sent.achievementId !== null && /^\d{1,15}$/.test(sent.achievementId) ? Number(sent.achievementId) : null,
        status: (ISSUANCE_STATUSES as readonly string[]).includes(sent.status ?? '') ? (sent.status as IssuanceStatus) : null,
        q: (sent.q ?? '').trim(),
        by: (SEARCH_FIELDS as readonly string[]).includes(sent.by ?? '') ? (sent.by as SearchField) : 'name',
        expiring: sent.expiring === 'true',
        notClaimed: sent.claimed === 'false',
      }
      // Another club's template is not found, as an unknown id is (docs/admin-console.md § Issuances): a
      // filter that answered an empty list would tell that the id exists elsewhere and hide the mistake.
      if (filters.achievementId !== null && !(await isClubTemplate(session.club, filters.achievementId))) return notFound(session)
      try {
        const page = await issuances.search(session.club, sent)
        const done = LIST_DONE[query.get('done') ?? ''] ?? null
        return htmlResponse(issuanceListPage(base, session, { page, templates, filters, done }))
      } catch (error) {
        if (!isProblem(error, 'validation-failed')) throw error
        const refused = new Map((error.errors ?? []).map(({ message, path }) => [path, message]))
        // A cursor or template id that is not one of this list's: no form makes those.
        if (refused.has('cursor') || refused.has('achievementId') || refused.has('expiring') || refused.has('claimed')) return notFound(session)
        const errors = new Map([...refused].flatMap(([path, code]) => (FILTER_WORDS[`${path} ${code}`] ? [[path, FILTER_WORDS[`${path} ${code}`]!]] : [])))
        const empty = { data: [], meta: { nextCursor: null } }
        return htmlResponse(issuanceListPage(base, session, { page: empty, templates, filters, errors }), 422)
      }
    },
    'GET /issuances/:id': async (session, request) => {
      const detail = await readIssuance(session, idOf(request))
      if (!detail) return notFound(session)
      const done = doneNoticeOf(request, DONE)
      const delivery = deliverySection(base, session, detail, await issuances.delivery(session.club, detail.id))
      return htmlResponse(issuanceDetailPage(base, session, { detail, done, delivery }))
    },
    'POST /issuances/:id/revoke': async (checked, request) => {
      const { session, form } = checked
      const id = idOf(request)
      const detail = await readIssuance(session, id)
      if (!detail || id === null) return notFound(session)
      const reason = (form.get('reason') ?? '').replace(/\r\n?/g, '\n')
      if (detail.status === 'revoked') return seeOther(issuancePath(base, id))
      if (form.get('confirm') !== 'yes') {
        return htmlResponse(issuanceDetailPage(base, session, { detail, reason, errors: new Map([['confirm', CONFIRM_NEEDED]]) }), 422)
      }
      try {
        await issuances.revoke(session.club, id, reason.trim() === '' ? {} : { reason })
      } catch (error) {
        if (isProblem(error, 'issuance-not-found')) return notFound(session)
        if (!isProblem(error, 'validation-failed')) throw error
        const code = error.errors?.[0]?.message ?? ''
        return htmlResponse(issuanceDetailPage(base, session, { detail, reason, errors: new Map([['reason', REASON_WORDS[code] ?? OTHER_REASON]]) }), 422)
      }
      return seeOther(`${issuancePath(base, id)}?done=revoked`)
    },
  } satisfies Partial<ConsoleHandlers>
}
