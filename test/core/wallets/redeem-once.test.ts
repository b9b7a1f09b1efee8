/**
 * Single use of a pre-authorized code, on the existing idempotency store (core/wallets/redeem-once.ts):
 * exactly one of concurrent redemptions of one code wins, on the memory reference storage (checked: every
 * write inside a unit of work), on SQLite and on PostgreSQL (a pool of connections); the row expires with the code and the purge removes it.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createIssuerContext } from '../../../core/create-core-issuer.ts'
import { defaultUrls } from '../../../core/config.ts'
import { REDEEMED_CODE_SCOPE, redeemOnce } from '../../../core/wallets/redeem-once.ts'
import { createCoreHarness, MASTER_KEY } from '../../support/core-issuer.ts'
import { createTestClock } from '../../support/clock.ts'
import { openTempSqlite } from '../../support/temp-sqlite.ts'
import { postgresPerFile } from '../../support/postgres-storage.ts'
import type { IssuerContext } from '../../../core/context.ts'

async function exactlyOneWins(ctx: IssuerContext): Promise<void> {
  const code = { jti: 'c0ffee', expiresAt: ctx.clock.now() + 600_000 }
  const outcomes = await Promise.all(Array.from({ length: 16 }, () => redeemOnce(ctx, code)))
  assert.equal(outcomes.filter(Boolean).length, 1, `one winner among ${outcomes.join(', ')}`)
  assert.equal(await redeemOnce(ctx, code), false, 'and later ones lose too')
  assert.equal(await redeemOnce(ctx, { ...code, jti: 'another' }), true, 'another code is its own')
  const row = await ctx.storage.idempotency.find(REDEEMED_CODE_SCOPE, 'c0ffee')
  assert.equal(row?.expiresAt, code.expiresAt, 'kept until the code itself expires')
}

const postgres = postgresPerFile()

describe('redeemOnce', () => {
  it('exactly one of concurrent redemptions of a code wins (memory, checked storage)', async () => {
    const harness = createCoreHarness()
    try {
      await exactlyOneWins(harness.context)
    } finally {
      await harness.close()
    }
  })

  it('exactly one of concurrent redemptions of a code wins (SQLite), and the purge drops the row after expiry', async () => {
    const sqlite = await openTempSqlite()
    const clock = createTestClock()
    const ctx = createIssuerContext({ storage: sqlite.storage, clock, masterKey: MASTER_KEY, urls: defaultUrls(8787) })
    try {
      await exactlyOneWins(ctx)
      clock.advance(600_001)
      assert.equal(await sqlite.storage.transaction((tx) => tx.idempotency.purgeExpired(clock.now())), 2)
      assert.equal(await ctx.storage.idempotency.find(REDEEMED_CODE_SCOPE, 'c0ffee'), null)
    } finally {
      await sqlite.close()
    }
  })

  it('exactly one of concurrent redemptions of a code wins (PostgreSQL, concurrent connections)', async () => {
    const opened = await postgres.open()
    const ctx = createIssuerContext({ storage: opened.storage, clock: createTestClock(), masterKey: MASTER_KEY, urls: defaultUrls(8787) })
    try {
      await exactlyOneWins(ctx)
    } finally {
      await opened.close()
    }
  })
})
