import * as v from 'valibot'
import type { IssuerContext } from '../context.ts'
import { appendEvents } from '../events/append.ts'
import type { ClubEvent } from '../events/event.ts'
import { ProblemError } from '../errors.ts'
import { completeClaim, type IdempotencyClaim } from '../idempotency/claim.ts'
import { parseInput } from '../validation/parse-input.ts'
import { optionalText } from '../validation/text.ts'

/** At most this many issuances per bulk revoke (docs/api.md §4.7b); more is 422 `too-many-issuances`, nothing revoked. */
export const MAX_REVOKE_IDS = 1000

/** The body of `POST …/issuances/revoke`: `{ issuanceIds, reason }`. */
export const revokeManyRequestSchema = v.strictObject(
  {
    issuanceIds: v.pipe(
      v.array(v.pipe(v.number('must-be-number'), v.integer('must-be-integer'), v.minValue(1, 'must-be-positive')), 'must-be-array'),
      v.minLength(1, 'required'),
    ),
    reason: v.optional(optionalText(500, 'multi-line')),
  },
  'unknown-field',
)

/** One id's outcome, told apart by `status`; `ref` is the id as a string, as the issue answer's `ref`. */
export const revokeManyItemSchema = v.variant('status', [
  v.object({ ref: v.string(), status: v.literal('revoked'), resourceId: v.number(), error: v.null() }),
  v.object({
    ref: v.string(),
    status: v.literal('skipped'),
    error: v.object({ code: v.literal('already-revoked'), message: v.string(), resourceId: v.number() }),
  }),
  v.object({ ref: v.string(), status: v.literal('failed'), error: v.object({ code: v.literal('issuance-not-found'), message: v.string(), path: v.string() }) }),
])
export type RevokeManyItem = v.InferOutput<typeof revokeManyItemSchema>

/** The answer of a bulk revoke: one item per id, in request order, and the counts as the issue answer's `summary`. */
export const revokeManyResultSchema = v.object({
  results: v.array(revokeManyItemSchema),
  summary: v.object({ total: v.number(), ok: v.number(), skipped: v.number(), failed: v.number() }),
})
export type RevokeManyResult = v.InferOutput<typeof revokeManyResultSchema>

/**
 * Revokes many issuances of a club in one unit of work (docs/api.md §4.7b): each revoked one gets its
 * `issuance.revoked` event, and the club's status list, computed from the revoked issuances, changes
 * once, when the unit commits. An id already revoked (or repeated in the request) is `skipped`; an id
 * the club has no issuance of (another club's included) is `failed` with `issuance-not-found`.
 */
export async function revokeManyIssuances(ctx: IssuerContext, club: string, input: unknown, claim: IdempotencyClaim | null = null): Promise<RevokeManyResult> {
  const ids = (input as { issuanceIds?: unknown } | null)?.issuanceIds
  if (Array.isArray(ids) && ids.length > MAX_REVOKE_IDS) {
    throw new ProblemError('too-many-issuances', { detail: `At most ${MAX_REVOKE_IDS} issuances per call.` })
  }
  const { issuanceIds, reason } = parseInput(revokeManyRequestSchema, input)
  const now = ctx.clock.now()
  return ctx.storage.transaction(
    async (tx) => {
      const found = new Map((await tx.issuances.findByIds(club, [...new Set(issuanceIds)])).map((issuance) => [issuance.id, issuance]))
      const revokedNow = new Set<number>()
      const results: RevokeManyItem[] = []
      for (const [index, id] of issuanceIds.entries()) {
        const ref = String(id)
        const issuance = found.get(id)
        if (!issuance) {
          results.push({ ref, status: 'failed', error: { code: 'issuance-not-found', message: `There is no issuance ${id}.`, path: `issuanceIds.${index}` } })
        } else if (issuance.revokedAt !== null || revokedNow.has(id) || !(await tx.issuances.revoke(club, id, now, reason ?? null))) {
          results.push({ ref, status: 'skipped', error: { code: 'already-revoked', message: `Issuance ${id} is already revoked.`, resourceId: id } })
        } else {
          revokedNow.add(id)
          results.push({ ref, status: 'revoked', resourceId: id, error: null })
        }
      }
      const events: Omit<ClubEvent, 'id'>[] = [...revokedNow].map((id) => ({
        club,
        type: 'issuance.revoked',
        subject: { type: 'issuance', id: String(id) },
        occurredAt: now,
      }))
      await appendEvents(tx, events)
      const count = (status: RevokeManyItem['status']) => results.filter((item) => item.status === status).length
      const result = { results, summary: { total: results.length, ok: count('revoked'), skipped: count('skipped'), failed: count('failed') } }
      if (claim) await completeClaim(tx, claim, result)
      return result
    },
    { club },
  )
}
