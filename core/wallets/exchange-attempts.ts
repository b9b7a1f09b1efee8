import { StorageConflict } from '../errors.ts'
import type { IssuerContext } from '../context.ts'

/**
 * The idempotency scope under which failed attempts at a wallet exchange are recorded. Idempotency-Key
 * scopes always hold a client id and a route separated by spaces (`core/idempotency/claim.ts`), and the
 * redemption scope is `oid4vci-code`, so none equals it.
 */
export const FAILED_ATTEMPT_SCOPE = 'lcw-exchange-failure'

/** Failed attempts after which an exchange is used up (docs/learner-credential-wallet.md § Failed attempts). */
export const MAX_FAILED_ATTEMPTS = 5

/** An exchange by its `jti`, kept until the exchange itself expires. */
export interface ExchangeAttempts {
  jti: string
  expiresAt: number
}

const slotKey = (jti: string, attempt: number) => `${jti} ${attempt}`

/** Whether the exchange `jti` has failed `MAX_FAILED_ATTEMPTS` times: one read, for the last slot. */
export async function failedAttemptsUsedUp(ctx: Pick<IssuerContext, 'storage'>, jti: string): Promise<boolean> {
  return (await ctx.storage.idempotency.find(FAILED_ATTEMPT_SCOPE, slotKey(jti, MAX_FAILED_ATTEMPTS))) !== null
}

/**
 * Records one failed attempt at the exchange; returns how many it has failed now, at most
 * `MAX_FAILED_ATTEMPTS`. Each attempt takes the first free numbered slot: an insert that conflicts is
 * a slot another attempt took, so concurrent failures on any number of nodes sharing the database each
 * take their own slot, and the exchange is used up once the last slot is taken, by whichever node.
 * Why slots in the idempotency store rather than a counter of its own: "insert, or StorageConflict"
 * is already atomic on every adapter, the worker already purges it by expiry, and it needs no new table
 * (the reasoning of `redeemOnce`, docs/decisions/0040-wallet-exchange-limits.md).
 */
export async function recordFailedAttempt(ctx: Pick<IssuerContext, 'storage' | 'clock'>, exchange: ExchangeAttempts): Promise<number> {
  const now = ctx.clock.now()
  for (let attempt = 1; attempt <= MAX_FAILED_ATTEMPTS; attempt++) {
    try {
      const record = {
        scope: FAILED_ATTEMPT_SCOPE,
        key: slotKey(exchange.jti, attempt),
        requestHash: '',
        response: null,
        createdAt: now,
        expiresAt: exchange.expiresAt,
      }
      await ctx.storage.transaction((tx) => tx.idempotency.insert(record), { concurrent: true })
      return attempt
    } catch (error) {
      if (!(error instanceof StorageConflict)) throw error
    }
  }
  return MAX_FAILED_ATTEMPTS
}
