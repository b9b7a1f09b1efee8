import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { claimIdempotencyKey, IDEMPOTENCY_IN_FLIGHT_MS, IDEMPOTENCY_RETENTION_MS } from '../../../core/idempotency/claim.ts'
import { ProblemError } from '../../../core/errors.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

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
    assert.deepEqual(replay.result, taken.result)
    assert.equal(await count(), 2)
  })

  it('the library scope and a client scope do not share keys', async () => {
    const body = { achievementFormId: templateId, recipients: recipients(1) }
    await issue(body, 'scoped')
    const library = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(1, 'lib') }, { idempotencyKey: 'scoped' })
    assert.equal(library.replayed, false)
    assert.equal(library.result.summary.ok, 1)
  })

  it('v1 issue answers { issued[], failed[] } and the same on a replay, shaped from the batch result its key stores', async () => {
    const body = { formId: templateId, recipients: [...recipients(2), { name: 'Kim Minsu', email: 'nope' }] }
    const v1Issue = () => h.issuer.v1.issue('chess', body, { idempotencyKey: 'v1-batch', idempotencyScope: 'client-1' })
    const first = await v1Issue()
    assert.equal(first.replayed, false)
    assert.deepEqual(
      first.result.issued.map((item) => item.ref),
      ['member-0', 'member-1'],
    )
    assert.deepEqual(
      first.result.failed.map((item) => [item.ref, item.error.code]),
      [['2', 'invalid-email']],
    )
    const replay = await v1Issue()
    assert.equal(replay.replayed, true)
    assert.deepEqual(replay.result, first.result)
    assert.equal(await count(), 2)
    // One form of the batch result: v1 stores what v2 would, and shapes it only when it answers.
    const stored = await h.storage.idempotency.find('client-1 POST v1/achievements chess', 'v1-batch')
    assert.deepEqual(Object.keys(JSON.parse(stored!.response!.body) as object), ['results', 'summary'])
  })

  it('a revoke replayed under its key answers the first detail, stored once as the detail itself', async () => {
    const [issued] = (await issue({ achievementFormId: templateId, recipients: recipients(1) }, 'to-revoke')).result.results
    assert.equal(issued!.status, 'issued')
    const id = issued!.status === 'issued' ? issued!.resourceId : 0
    const revoke = () => h.issuer.issuances.revoke('chess', id, { reason: 'left the club' }, { idempotencyKey: 'revoke-once', idempotencyScope: 'client-1' })
    const first = await revoke()
    assert.equal(first.replayed, false)
    assert.equal(first.detail.status, 'revoked')
    h.clock.advance(1000)
    const replay = await revoke()
    assert.equal(replay.replayed, true)
    assert.deepEqual(replay.detail, first.detail)
    const stored = await h.storage.idempotency.find(`client-1 POST issuances/${id}/revoke chess`, 'revoke-once')
    assert.equal((JSON.parse(stored!.response!.body) as { id: number }).id, id)
  })
})
