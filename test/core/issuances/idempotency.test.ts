import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { claimIdempotencyKey, IDEMPOTENCY_IN_FLIGHT_MS, IDEMPOTENCY_RETENTION_MS } from '../../../core/idempotency/claim.ts'
import { ProblemError } from '../../../core/errors.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { recipients } from './support.ts'

/** Idempotency-Key over time (docs/decisions/0013-issuing.md): kept 24 h, and an in-flight claim of a dead request is taken over. */

let h: CoreHarness
let templateId: number
beforeEach(async () => {
  h = createCoreHarness()
  await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
})
afterEach(async () => {
  await h.close()
})

const SCOPE = 'client-1 POST issuances chess'
const issue = (body: unknown, key: string) => h.issuer.issuances.issue('chess', body as never, { idempotencyKey: key, idempotencyScope: 'client-1' })
const problemCode = (code: string) => (error: unknown) => error instanceof ProblemError && error.code === code
const count = async () => (await h.issuer.issuances.list('chess', { limit: '100' })).data.length

describe('Idempotency-Key over time (docs/decisions/0013-issuing.md)', () => {
  it('is kept 24 hours: until then another body is refused, afterwards the key is free again', async () => {
    await issue({ achievementFormId: templateId, recipients: recipients(1, 'a') }, 'day-key')
    h.clock.advance(IDEMPOTENCY_RETENTION_MS - 1)
    await assert.rejects(issue({ achievementFormId: templateId, recipients: recipients(1, 'b') }, 'day-key'), problemCode('idempotency-key-reused'))
    assert.equal(IDEMPOTENCY_RETENTION_MS, 24 * 60 * 60 * 1000)
    h.clock.advance(1)
    const later = await issue({ achievementFormId: templateId, recipients: recipients(1, 'b') }, 'day-key')
    assert.equal(later.replayed, false)
    assert.equal(later.result.summary.ok, 1)
    assert.equal(await count(), 2)
  })

  it('a claim whose request died is in flight for a while, then taken over and the batch issued once', async () => {
    const body = { achievementFormId: templateId, recipients: recipients(2) }
    const orphan = await claimIdempotencyKey(h.context, 'chess', SCOPE, 'orphan', body)
    assert.ok('claim' in orphan)
    await assert.rejects(issue(body, 'orphan'), problemCode('idempotency-in-flight'))
    h.clock.advance(IDEMPOTENCY_IN_FLIGHT_MS - 1)
    await assert.rejects(issue(body, 'orphan'), problemCode('idempotency-in-flight'))
    assert.equal(await count(), 0)
    h.clock.advance(1)
    const taken = await issue(body, 'orphan')
    assert.equal(taken.replayed, false)
    assert.equal(taken.result.summary.ok, 2)
    const replay = await issue(body, 'orphan')
    assert.equal(replay.replayed, true)
    assert.equal(replay.body, taken.body)
    assert.equal(await count(), 2)
  })

  it('the library scope and a client scope do not share keys', async () => {
    const body = { achievementFormId: templateId, recipients: recipients(1) }
    await issue(body, 'scoped')
    const library = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(1, 'lib') }, { idempotencyKey: 'scoped' })
    assert.equal(library.replayed, false)
    assert.equal(library.result.summary.ok, 1)
  })
})
