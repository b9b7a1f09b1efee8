import * as v from 'valibot'
import { parseInput } from '../validation/parse-input.ts'
import { completeClaim, type IdempotencyClaim } from '../idempotency/claim.ts'
import { readIssuance } from '../issuances/read.ts'
import { ProblemError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import type { IssuanceDetail } from '../issuances/present.ts'
import { reissueIn } from './reissue-one.ts'
import { bulkReissueRequestSchema, reissueRequestSchema } from './schema.ts'

/**
 * Reissues one issuance (docs/api.md §4.17): corrects it, renews it or moves it to another recipient,
 * and answers the detail of the issuance that now holds the credential. One unit of work, the
 * `Idempotency-Key`'s answer included, so a crash leaves the reissue either accepted and answered or
 * not done at all.
 */
export async function reissueIssuance(
  ctx: IssuerContext,
  club: string,
  id: number,
  input: unknown,
  claim: IdempotencyClaim | null = null,
): Promise<IssuanceDetail> {
  const request = parseInput(reissueRequestSchema, input ?? {})
  const now = ctx.clock.now()
  const detail = await ctx.storage.transaction(
    async (tx) => {
      const { issuanceId } = await reissueIn(ctx, tx, club, id, request, now)
      const answer = await readIssuance(ctx, club, issuanceId, tx)
      if (claim) await completeClaim(tx, claim, answer)
      return answer
    },
    { club },
  )
  ctx.signingQueue.notify()
  return detail
}

/** One item of a bulk reissue's answer, as the issue answer's items (docs/api.md §2.9). */
export const bulkReissueItemSchema = v.variant('status', [
  v.object({ ref: v.string(), status: v.literal('reissued'), resourceId: v.number(), error: v.null() }),
  v.object({ ref: v.string(), status: v.literal('skipped'), error: v.object({ code: v.literal('issuance-revoked'), message: v.string() }) }),
  v.object({ ref: v.string(), status: v.literal('failed'), error: v.object({ code: v.literal('issuance-not-found'), message: v.string(), path: v.string() }) }),
])
export type BulkReissueItem = v.InferOutput<typeof bulkReissueItemSchema>

export const bulkReissueResultSchema = v.object({
  results: v.array(bulkReissueItemSchema),
  summary: v.object({ total: v.number(), ok: v.number(), skipped: v.number(), failed: v.number() }),
})
export type BulkReissueResult = v.InferOutput<typeof bulkReissueResultSchema>

/**
 * Reissues many issuances with one expiry (docs/api.md §4.17), a season's renewal: each a new version
 * for its own recipient. One unit of work: all accepted or none, with the `Idempotency-Key`'s answer.
 * An id given twice is reissued once; its second place answers as the first.
 */
export async function reissueMany(ctx: IssuerContext, club: string, input: unknown, claim: IdempotencyClaim | null = null): Promise<BulkReissueResult> {
  const request = parseInput(bulkReissueRequestSchema, input)
  const now = ctx.clock.now()
  const { issuanceIds, ...values } = request
  const result = await ctx.storage.transaction(
    async (tx) => {
      const results: BulkReissueItem[] = []
      const done = new Map<number, BulkReissueItem>()
      for (const [index, id] of issuanceIds.entries()) {
        const ref = String(id)
        const earlier = done.get(id)
        if (earlier) {
          results.push(earlier)
          continue
        }
        let item: BulkReissueItem
        try {
          const { issuanceId } = await reissueIn(ctx, tx, club, id, values, now)
          item = { ref, status: 'reissued', resourceId: issuanceId, error: null }
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error
          if (error.code === 'issuance-revoked') item = { ref, status: 'skipped', error: { code: 'issuance-revoked', message: 'The issuance is revoked.' } }
          else if (error.code === 'issuance-not-found') {
            item = { ref, status: 'failed', error: { code: 'issuance-not-found', message: 'There is no such issuance.', path: `issuanceIds.${index}` } }
          } else throw error
        }
        done.set(id, item)
        results.push(item)
      }
      const count = (status: BulkReissueItem['status']) => results.filter((item) => item.status === status).length
      const answer: BulkReissueResult = {
        results,
        summary: { total: results.length, ok: count('reissued'), skipped: count('skipped'), failed: count('failed') },
      }
      if (claim) await completeClaim(tx, claim, answer)
      return answer
    },
    { club },
  )
  if (result.summary.ok > 0) ctx.signingQueue.notify()
  return result
}
