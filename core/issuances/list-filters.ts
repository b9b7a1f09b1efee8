import type { FieldError } from '../errors.ts'
import { ISSUANCE_STATUSES, type IssuanceStatus } from './present.ts'

/** The issuance list's filters beside `achievementId` (docs/api.md §4.4), as a query string holds them. */
export interface IssuanceListFilters {
  /** One of `ISSUANCE_STATUSES`: `pending`, `valid`, `revoked`, `expired`. */
  status?: string | null
  /** `true`: only issuances a wallet has taken; `false`: only those none has. */
  claimed?: string | null
}

/**
 * The filters read, or the field errors of those that are not one of their values (`unknown-status`,
 * `invalid-claimed`), each with the filter's name as its path. Absent or empty is no filter.
 */
export function parseListFilters(query: IssuanceListFilters, errors: FieldError[]): { status: IssuanceStatus | null; claimed: boolean | null } {
  const given = (text: string | null | undefined) => (text === undefined || text === null || text === '' ? null : text)
  const status = given(query.status)
  const claimed = given(query.claimed)
  if (status !== null && !(ISSUANCE_STATUSES as readonly string[]).includes(status)) errors.push({ message: 'unknown-status', path: 'status' })
  if (claimed !== null && claimed !== 'true' && claimed !== 'false') errors.push({ message: 'invalid-claimed', path: 'claimed' })
  return { status: status as IssuanceStatus | null, claimed: claimed === null ? null : claimed === 'true' }
}
