import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { FAILED_ATTEMPT_SCOPE, failedAttemptsUsedUp, MAX_FAILED_ATTEMPTS, recordFailedAttempt } from '../../../core/wallets/exchange-attempts.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

const NOW = 1_900_000_000_000
const clock = { now: () => NOW }

/**
 * The Learner Credential Wallet exchange's failed attempts (core/wallets/exchange-attempts.ts), kept in
 * the idempotency store: each failure takes a slot of its own, also when they come at once, so that the
 * exchange is used up after five on every node that shares the storage.
 * @see docs/decisions/0040-wallet-exchange-limits.md (a failed POST did not use the exchange up)
 */
export function walletExchangeAttemptCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('wallet exchange attempts', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const exchange = { jti: '0b5e7c1a-9f1d-4f57-9c1e-2a3b4c5d6e7f', expiresAt: NOW + 600_000 }

    it('five failed attempts use an exchange up; later ones are not recorded, and another exchange is its own', async () => {
      const ctx = { storage: storage(), clock }
      for (let attempt = 1; attempt <= MAX_FAILED_ATTEMPTS; attempt++) {
        assert.equal(await failedAttemptsUsedUp(ctx, exchange.jti), false, `open before failure ${attempt}`)
        assert.equal(await recordFailedAttempt(ctx, exchange), attempt)
      }
      assert.equal(await failedAttemptsUsedUp(ctx, exchange.jti), true)
      assert.equal(await recordFailedAttempt(ctx, exchange), MAX_FAILED_ATTEMPTS)
      const slot = await ctx.storage.idempotency.find(FAILED_ATTEMPT_SCOPE, `${exchange.jti} ${MAX_FAILED_ATTEMPTS}`)
      assert.equal(slot?.expiresAt, exchange.expiresAt, 'kept until the exchange itself expires')
      assert.equal(await failedAttemptsUsedUp(ctx, 'another-exchange'), false)
      assert.equal(await recordFailedAttempt(ctx, { ...exchange, jti: 'another-exchange' }), 1)
      assert.equal(await ctx.storage.transaction((tx) => tx.idempotency.purgeExpired(exchange.expiresAt + 1)), MAX_FAILED_ATTEMPTS + 1)
      assert.equal(await failedAttemptsUsedUp(ctx, exchange.jti), false, 'purged with the expired exchange')
    })

    it('failed attempts at once each take a slot of their own: of eight, five are recorded and the exchange is used up', async () => {
      const ctx = { storage: storage(), clock }
      const counts = await Promise.all(Array.from({ length: 8 }, () => recordFailedAttempt(ctx, exchange)))
      assert.deepEqual(
        counts.sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 5, 5, 5],
      )
      assert.equal(await failedAttemptsUsedUp(ctx, exchange.jti), true)
    })
  })
}
