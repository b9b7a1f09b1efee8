import * as v from 'valibot'
import { appendEvent } from '../events/append.ts'
import { parseInput } from '../validation/parse-input.ts'
import { optionalText } from '../validation/text.ts'
import { readIssuance, requireIssuance } from './read.ts'
import type { IssuerContext } from '../context.ts'
import { completeClaim, type IdempotencyClaim } from '../idempotency/claim.ts'
import type { IssuanceDetail } from './present.ts'

/** The optional body of a revoke (docs/decisions/0010-lifecycle.md): `{ reason }`. */
export const revokeRequestSchema = v.strictObject({ reason: v.optional(optionalText(500, 'multi-line')) }, 'unknown-field')

/**
 * Revokes an issuance (docs/api.md §4.7, docs/decisions/0010-lifecycle.md): sets the credential's bit in the club's
 * revocation list (the list is computed from revoked issuances), emits `issuance.revoked` once, and
 * answers the detail. Revoking again changes nothing and emits nothing. Before the credential exists it is
 * allowed: the credential is then born revoked. With `claim`, the detail is stored under it in the same unit.
 */
export async function revokeIssuance(
  ctx: IssuerContext,
  club: string,
  id: number,
  input: unknown,
  claim: IdempotencyClaim | null = null,
): Promise<IssuanceDetail> {
  const { reason } = input === undefined ? { reason: null } : parseInput(revokeRequestSchema, input)
  const now = ctx.clock.now()
  return ctx.storage.transaction(
    async (tx) => {
      await requireIssuance(tx, club, id)
      if (await tx.issuances.revoke(club, id, now, reason ?? null)) {
        await appendEvent(tx, { club, type: 'issuance.revoked', subject: { type: 'issuance', id: String(id) }, occurredAt: now })
      }
      const detail = await readIssuance(ctx, club, id, tx)
      if (claim) await completeClaim(tx, claim, detail)
      return detail
    },
    { club },
  )
}
