import * as v from 'valibot'
import { decodeJwt } from 'jose'
import { ProblemError, validationFailed, type FieldError } from '../errors.ts'
import { parseListQuery, toPage, type ListQuery, type Page } from '../lists/cursor.ts'
import { presentIssuanceDetail, presentIssuanceItem, type IssuanceDetail, type IssuanceItem } from './present.ts'
import type { IssuerContext } from '../context.ts'
import type { KeysetPage, Stores } from '../ports/storage.ts'
import { parseListFilters, type IssuanceListFilters } from './list-filters.ts'
import type { Issuance } from './issuance.ts'
import { reissueDetailFields } from '../reissues/present.ts'
import { presentClaims } from './claims-view.ts'
import { presentShareViews } from './share-views-view.ts'

/** The club's issuance, or 404 `issuance-not-found` (also for another club's issuance). */
export async function requireIssuance(stores: Stores, club: string, id: number): Promise<Issuance> {
  const issuance = Number.isSafeInteger(id) && id > 0 ? await stores.issuances.findById(club, id) : null
  if (!issuance) throw new ProblemError('issuance-not-found', { detail: `There is no issuance ${id}.` })
  return issuance
}

export async function readIssuance(ctx: IssuerContext, club: string, id: number, stores: Stores = ctx.storage): Promise<IssuanceDetail> {
  const issuance = await requireIssuance(stores, club, id)
  const snapshot = await stores.snapshots.findById(issuance.snapshotId)
  const credential = await stores.credentials.findByIssuance(issuance.id)
  const reissue = await reissueDetailFields(stores, issuance, credential)
  const claims = await stores.claims.listByIssuance(issuance.id)
  const views = credential ? await stores.shareViews.find(credential.id) : null
  return {
    ...presentIssuanceDetail(ctx.config, issuance, snapshot!.view, credential, ctx.clock.now(), reissue),
    ...presentClaims(claims),
    ...presentShareViews(views),
  }
}

/**
 * What the issuance list and the console's search read alike: the page, the template and the status and
 * claimed filters. Every refusal goes into `errors` (one `validation-failed` names them all), never thrown.
 */
export function parseIssuanceListQuery(
  query: ListQuery & IssuanceListFilters & { achievementId?: string | null },
  errors: FieldError[],
): { page: KeysetPage; achievementId: number | null | undefined } & ReturnType<typeof parseListFilters> {
  let page: KeysetPage = { limit: 0, beforeId: null }
  try {
    page = parseListQuery('issuances', query)
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error
    errors.push(...(error.errors ?? []))
  }
  const achievementId = parseAchievementId(query.achievementId)
  if (achievementId === undefined) errors.push({ message: 'invalid-achievement-id', path: 'achievementId' })
  return { page, achievementId, ...parseListFilters(query, errors) }
}

/** A template filter of a list: `null` when absent, `undefined` when it is not a template id. */
export function parseAchievementId(text: string | null | undefined): number | null | undefined {
  if (text === undefined || text === null) return null
  return /^[1-9]\d{0,14}$/.test(text) ? Number(text) : undefined
}

/**
 * The club's issuances, newest first, optionally of one template (`achievementId`), of one status and
 * taken into a wallet or not (`status`, `claimed`: list-filters.ts). Filtered, the page is the search's
 * (`IssuanceStore.search`), whose index walks keep a filtered page's cost near an unfiltered one's.
 */
export async function listIssuances(
  ctx: IssuerContext,
  club: string,
  query: ListQuery & IssuanceListFilters & { achievementId?: string | null },
): Promise<Page<IssuanceItem>> {
  const errors: FieldError[] = []
  const { page, achievementId, status, claimed } = parseIssuanceListQuery(query, errors)
  if (errors.length > 0) throw validationFailed(errors, 'The list parameters are not valid.')
  const now = ctx.clock.now()
  // The cursor carries the sequence (issue order), never the id: ids are random (issuance-id.ts).
  const rows =
    status === null && claimed === null
      ? await ctx.storage.issuances.list(club, { limit: page.limit + 1, beforeSequence: page.beforeId, achievementId: achievementId ?? null })
      : await ctx.storage.issuances.search(club, {
          limit: page.limit + 1,
          afterSequence: page.beforeId,
          achievementId: achievementId ?? null,
          status,
          claimed,
          now,
          recipient: null,
        })
  return issuancePage(ctx, rows, page.limit, now)
}

/**
 * A page of issuances (up to `limit`, one more telling that a next page exists) with each one's
 * credential, presented at `now`; the cursor carries the sequence (issue order), never the id.
 */
export async function issuancePage(ctx: IssuerContext, rows: Issuance[], limit: number, now: number): Promise<Page<IssuanceItem>> {
  const credentials = new Map((await ctx.storage.credentials.findByIssuances(rows.map((row) => row.id))).map((c) => [c.issuanceId, c]))
  return toPage(
    'issuances',
    rows,
    limit,
    (row) => presentIssuanceItem(row, credentials.get(row.id) ?? null, now),
    (row) => row.sequence,
  )
}

/** Decoded JWT claims: the members the credential's JWT holds (docs/decisions/0014-signed-credential.md), and any others. */
export const jwtClaimsSchema = v.record(v.string(), v.unknown())

/** A signed credential as the credential read returns it (docs/api.md §2.8): `payload` is the decoded `jwt`. */
export const credentialViewSchema = v.object({ id: v.string(), format: v.literal('OB3_VC_JWT'), jwt: v.string(), payload: jwtClaimsSchema })
export type CredentialView = v.InferOutput<typeof credentialViewSchema>

/** The credential read (docs/api.md §2.8): `{ id, format, jwt, payload }`; 409 `credential-pending` before it exists. */
export async function readCredential(ctx: IssuerContext, club: string, issuanceId: number): Promise<CredentialView> {
  const issuance = await requireIssuance(ctx.storage, club, issuanceId)
  const credential = await ctx.storage.credentials.findByIssuance(issuance.id)
  if (!credential) {
    throw new ProblemError('credential-pending', {
      detail: 'The signed credential is not created yet; wait for the issuance.credential_issued event.',
    })
  }
  return { id: credential.id, format: 'OB3_VC_JWT' as const, jwt: credential.jwt, payload: decodeJwt(credential.jwt) }
}
