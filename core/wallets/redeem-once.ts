import { StorageConflict } from '../errors.ts'
import type { IssuerContext } from '../context.ts'

/**
 * The idempotency scope under which redeemed pre-authorized codes are recorded. Idempotency-Key scopes
 * always hold a client id and a route separated by spaces (`core/idempotency/claim.ts`), so none equals it.
 */
export const REDEEMED_CODE_SCOPE = 'oid4vci-code'

/**
 * Records that the pre-authorized code `jti` was redeemed; `false` when it already was. This is the only
 * write of the wallet flow, and it happens at redemption, never when a page or an offer is viewed: codes
 * are stateless (signed), so storage grows with redemptions alone. Why the idempotency store and not a
 * store of its own: it already is a keyed set with an expiry that the worker purges, and "insert, or
 * StorageConflict when the key exists" is exactly single use, also across processes on one database,
 * without a new table in every storage adapter. The row lives until the code's own expiry: after that the
 * signature check refuses the code anyway, so the purge may drop it.
 */
export async function redeemOnce(ctx: IssuerContext, code: { jti: string; expiresAt: number }): Promise<boolean> {
  const now = ctx.clock.now()
  try {
    await ctx.storage.transaction(
      (tx) => tx.idempotency.insert({ scope: REDEEMED_CODE_SCOPE, key: code.jti, requestHash: '', response: null, createdAt: now, expiresAt: code.expiresAt }),
      { concurrent: true },
    )
    return true
  } catch (error) {
    if (error instanceof StorageConflict) return false
    throw error
  }
}
