import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createFailureLimiter } from '../../../core/clients/failure-limiter.ts'
import { OAuthError } from '../../../core/errors.ts'
import { createTestClock } from '../../support/clock.ts'
import { tokenFor } from '../../support/tokens.ts'
import { clubWithClient, createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

describe('the failure limiter', () => {
  it('lets a key try until it reaches the limit, then tells it the seconds left in the window', () => {
    const clock = createTestClock()
    const limiter = createFailureLimiter({ clock, limit: 3, windowSeconds: 60 })
    for (let i = 0; i < 3; i++) {
      assert.equal(limiter.retryAfter('a'), 0)
      limiter.recordFailure('a')
      clock.advance(1000)
    }
    assert.equal(limiter.retryAfter('a'), 57)
    clock.advance(56_500)
    assert.equal(limiter.retryAfter('a'), 1)
    clock.advance(500)
    assert.equal(limiter.retryAfter('a'), 0)
  })

  it('counts each key on its own', () => {
    const limiter = createFailureLimiter({ clock: createTestClock(), limit: 1, windowSeconds: 10 })
    limiter.recordFailure('a')
    assert.equal(limiter.retryAfter('a'), 10)
    assert.equal(limiter.retryAfter('b'), 0)
  })

  it("a success clears the key's failures", () => {
    const limiter = createFailureLimiter({ clock: createTestClock(), limit: 2, windowSeconds: 10 })
    limiter.recordFailure('a')
    limiter.recordSuccess('a')
    limiter.recordFailure('a')
    assert.equal(limiter.retryAfter('a'), 0)
  })

  it('failures of an ended window do not count in the next one', () => {
    const clock = createTestClock()
    const limiter = createFailureLimiter({ clock, limit: 2, windowSeconds: 10 })
    limiter.recordFailure('a')
    clock.advance(10_000)
    limiter.recordFailure('a')
    assert.equal(limiter.retryAfter('a'), 0)
  })

  it('forgets the oldest counting keys beyond maxTracked', () => {
    const limiter = createFailureLimiter({ clock: createTestClock(), limit: 2, windowSeconds: 10, maxTracked: 2 })
    for (const key of ['a', 'b', 'c']) limiter.recordFailure(key) // 'a' is forgotten
    for (const key of ['b', 'c']) limiter.recordFailure(key)
    assert.deepStrictEqual(
      ['a', 'b', 'c'].map((key) => limiter.retryAfter(key)),
      [0, 10, 10],
    )
  })

  it('never forgets a locked key to make room, whatever the number of other keys', () => {
    const limiter = createFailureLimiter({ clock: createTestClock(), limit: 2, windowSeconds: 10, maxTracked: 3 })
    limiter.recordFailure('victim')
    limiter.recordFailure('victim')
    for (let i = 0; i < 1_000; i++) limiter.recordFailure(`sprayed-${i}`)
    assert.equal(limiter.retryAfter('victim'), 10)
  })

  it('with maxLocked keys locked it fails closed for every key until the earliest lock ends', () => {
    const clock = createTestClock()
    const limiter = createFailureLimiter({ clock, limit: 1, windowSeconds: 10, maxLocked: 2 })
    limiter.recordFailure('a')
    clock.advance(2_000)
    limiter.recordFailure('b')
    limiter.recordFailure('c') // a third lock does not fit, and is not needed: everyone waits now
    assert.deepStrictEqual(
      ['a', 'b', 'c', 'bystander'].map((key) => limiter.retryAfter(key)),
      [8, 10, 8, 8],
    )
    clock.advance(8_000) // 'a' ends: there is room again
    assert.deepStrictEqual(
      ['a', 'b', 'c', 'bystander'].map((key) => limiter.retryAfter(key)),
      [0, 2, 0, 0],
    )
  })

  it('tracks a key by its first 128 characters, so that one entry costs bounded memory', () => {
    const limiter = createFailureLimiter({ clock: createTestClock(), limit: 1, windowSeconds: 10 })
    limiter.recordFailure('x'.repeat(128) + 'one')
    assert.equal(limiter.retryAfter('x'.repeat(128) + 'two'), 10)
    assert.equal(limiter.retryAfter('x'.repeat(127)), 0)
  })
})

describe('failed client authentication at the token endpoint', () => {
  let h: CoreHarness
  beforeEach(() => {
    h = createCoreHarness({ clientAuthFailures: { limit: 5, windowSeconds: 60 } })
  })
  afterEach(() => h.close())

  const wrong = (clientId: string) => h.issuer.tokens.issue({ clientId, clientSecret: 'ccs_wrong', grantType: 'client_credentials', scope: null })

  it('after `limit` failures even the right secret gets rate_limited with retryAfter, until the window ends', async () => {
    const client = await clubWithClient(h.issuer)
    for (let i = 0; i < 5; i++) {
      await assert.rejects(wrong(client.client_id), (error) => error instanceof OAuthError && error.error === 'invalid_client')
      h.clock.advance(1000)
    }
    await assert.rejects(tokenFor(h.issuer, client), (error) => {
      assert.ok(error instanceof OAuthError)
      assert.equal(error.error, 'rate_limited')
      assert.equal(error.retryAfter, 55)
      return true
    })
    h.clock.advance(55_000)
    const token = await tokenFor(h.issuer, client)
    assert.equal(token.token_type, 'Bearer')
  })

  it('another client id is not affected', async () => {
    const victim = await clubWithClient(h.issuer)
    const bystander = await clubWithClient(h.issuer)
    for (let i = 0; i < 5; i++) await assert.rejects(wrong(victim.client_id))
    await assert.rejects(tokenFor(h.issuer, victim), (error) => error instanceof OAuthError && error.error === 'rate_limited')
    assert.equal((await tokenFor(h.issuer, bystander)).token_type, 'Bearer')
  })

  it('unknown client ids are limited too', async () => {
    for (let i = 0; i < 5; i++) await assert.rejects(wrong('cc_unknown'), (error) => error instanceof OAuthError && error.error === 'invalid_client')
    await assert.rejects(wrong('cc_unknown'), (error) => error instanceof OAuthError && error.error === 'rate_limited')
  })

  it('a success before the limit starts the count again', async () => {
    const client = await clubWithClient(h.issuer)
    for (let i = 0; i < 4; i++) await assert.rejects(wrong(client.client_id))
    await tokenFor(h.issuer, client)
    for (let i = 0; i < 4; i++) await assert.rejects(wrong(client.client_id), (error) => error instanceof OAuthError && error.error === 'invalid_client')
    assert.equal((await tokenFor(h.issuer, client)).token_type, 'Bearer')
  })
})

/** The count of a client that exists is kept in storage, shared by every node. */
describe('failed client authentication in storage', () => {
  let h: CoreHarness
  beforeEach(() => {
    h = createCoreHarness({ clientAuthFailures: { limit: 5, windowSeconds: 60 } })
  })
  afterEach(() => h.close())

  const wrong = (clientId: string) => h.issuer.tokens.issue({ clientId, clientSecret: 'ccs_wrong', grantType: 'client_credentials', scope: null })
  const rowsLeft = () => h.storage.transaction((tx) => tx.clientAuthFailures.purgeEnded(Number.MAX_SAFE_INTEGER))

  it("a client's failures are counted in storage, and a success clears them", async () => {
    const client = await clubWithClient(h.issuer)
    for (let i = 0; i < 3; i++) await assert.rejects(wrong(client.client_id))
    assert.deepStrictEqual(await h.storage.clientAuthFailures.find(client.client_id, h.clock.now()), {
      clientId: client.client_id,
      failures: 3,
      endsAt: h.clock.now() + 60_000,
    })
    await tokenFor(h.issuer, client)
    assert.equal(await h.storage.clientAuthFailures.find(client.client_id, h.clock.now()), null)
  })

  it('failures of made-up ids write no row, yet lock those ids on this node', async () => {
    for (let i = 0; i < 100; i++) await assert.rejects(wrong(`cc_made_up_${i % 20}`))
    assert.equal(await rowsLeft(), 0)
    await assert.rejects(wrong('cc_made_up_0'), (error) => error instanceof OAuthError && error.error === 'rate_limited')
  })

  it("the worker's housekeeping deletes ended windows", async () => {
    const client = await clubWithClient(h.issuer)
    await assert.rejects(wrong(client.client_id))
    h.clock.advance(60_000)
    await h.issuer.worker.runOnce()
    assert.equal(await rowsLeft(), 0)
  })
})
