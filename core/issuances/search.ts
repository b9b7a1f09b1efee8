import { validationFailed, type FieldError } from '../errors.ts'
import type { ListQuery, Page } from '../lists/cursor.ts'
import { characterCount } from '../validation/text.ts'
import { issuancePage, parseIssuanceListQuery } from './read.ts'
import type { IssuanceItem } from './present.ts'
import type { IssuerContext } from '../context.ts'
import type { RecipientMatch } from '../ports/storage.ts'

/** The recipient fields the search box can look in (docs/admin-console.md § Issuances). */
export const SEARCH_FIELDS = ['name', 'email', 'externalUserId'] as const
export type SearchField = (typeof SEARCH_FIELDS)[number]

/** A search term longer than the longest e-mail address (254) finds nothing anyway. */
export const SEARCH_TERM_MAX = 254

/**
 * The console's issuance search: every filter a string as a query string holds it, `null` or absent
 * when not given. `q` is personal data: nothing here logs it or puts it in an error.
 */
export interface IssuanceSearchQuery extends ListQuery {
  achievementId?: string | null
  /** One of `ISSUANCE_STATUSES`. */
  status?: string | null
  /** The search term; empty or blank is no search. */
  q?: string | null
  /** Where `q` is looked for: `name` (a prefix, the default), `email` or `externalUserId` (whole). */
  by?: string | null
  /** `true`: only the issuances a wallet has taken; `false`: only those none has (list-filters.ts). */
  claimed?: string | null
  /** `true`: only valid issuances that expire within `EXPIRING_SOON_DAYS` days. */
  expiring?: string | null
}

/** What "expiring soon" means on the console's list (docs/admin-console.md § Issuances). */
export const EXPIRING_SOON_DAYS = 30

/**
 * The club's issuances by template, status and recipient, newest first (by name when searching a name),
 * one keyset page at a time (docs/admin-console.md § Issuances). A filter that is not one of its values
 * is `validation-failed` with the filter's name as the path.
 */
export async function searchIssuances(ctx: IssuerContext, club: string, query: IssuanceSearchQuery): Promise<Page<IssuanceItem>> {
  const errors: FieldError[] = []
  const { page, achievementId, status, claimed } = parseIssuanceListQuery(query, errors)
  const expiring = query.expiring === undefined || query.expiring === null || query.expiring === '' ? false : query.expiring
  if (expiring !== false && expiring !== 'true') errors.push({ message: 'invalid-expiring', path: 'expiring' })
  const by = query.by === undefined || query.by === null || query.by === '' ? 'name' : query.by
  if (!(SEARCH_FIELDS as readonly string[]).includes(by)) errors.push({ message: 'unknown-search-field', path: 'by' })
  const term = (query.q ?? '').trim()
  if (characterCount(term) > SEARCH_TERM_MAX) errors.push({ message: 'too-long', path: 'q' })
  if (errors.length > 0) throw validationFailed(errors, 'The search parameters are not valid.')

  const recipient = term === '' ? null : ({ by, value: term } as RecipientMatch)
  const now = ctx.clock.now()
  const soon = expiring === 'true'
  const rows =
    // Expiring soon is valid now: another status asked beside it matches nothing.
    soon && status !== null && status !== 'valid'
      ? []
      : await ctx.storage.issuances.search(club, {
          limit: page.limit + 1,
          afterSequence: page.beforeId,
          achievementId: achievementId ?? null,
          status: soon ? 'valid' : status,
          now,
          recipient,
          claimed,
          expiresBefore: soon ? now + EXPIRING_SOON_DAYS * 86_400_000 : null,
        })
  return issuancePage(ctx, rows, page.limit, now)
}
