import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { claimPending, signClaimed, storeSigned } from '../../../core/signing-queue/sign-pending.ts'
import { DEFAULTS } from '../../../core/config.ts'
import { permuteIndex } from '../../../core/status-lists/permute-index.ts'
import { webCryptoSigner } from '../../../core/credentials/webcrypto-signer.ts'
import type { JwtSigner } from '../../../core/ports/signer.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { assertSignedCredential } from '../../support/ob3-schema.ts'
import { recipients } from '../../support/issuance-api.ts'

/**
 * The signing queue under failure (docs/decisions/0026-bars-every-feature-meets.md: a crash at any point loses
 * no accepted issuance and never yields two credentials for one issuance): a dead worker's lease, a job
 * signed twice, a failing signer.
 */

let h: CoreHarness
let templateId: number
let failSigning = false
let signCalls = 0
const flakySigner: JwtSigner = {
  signMany(key, header, payloads) {
    signCalls++
    if (failSigning) return Promise.reject(new Error('signer unavailable'))
    return webCryptoSigner.signMany(key, header, payloads)
  },
}

beforeEach(async () => {
  failSigning = false
  signCalls = 0
  h = createCoreHarness({ signer: flakySigner, worker: { onError: () => {} } })
  await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
})
afterEach(async () => {
  await h.close()
})

async function issueTo(count: number): Promise<number[]> {
  const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(count) })
  assert.equal(result.summary.ok, count)
  return result.results.map((item) => (item as { resourceId: number }).resourceId)
}

async function credentialsOf(ids: number[]) {
  return h.storage.credentials.findByIssuances(ids)
}

async function eventsOf(type: string): Promise<string[]> {
  const page = await h.issuer.events.list('chess', { limit: '100' })
  assert.equal(page.meta.nextCursor, null)
  return page.data.filter((event) => event.type === type).map((event) => event.subject.id)
}

async function statusLists() {
  return h.storage.statusLists.listByClub('chess')
}

describe('the signing queue under failure (docs/decisions/0026-bars-every-feature-meets.md)', { timeout: 20_000 }, () => {
  it("a dead worker's jobs wait for the lease to end, then are signed with the slots it reserved", async () => {
    const ids = await issueTo(5)
    const dead = await claimPending(h.context, 1000)
    assert.equal(dead.length, 5)
    const reserved = dead.map((claimed) => claimed.job.statusListIndex).sort((a, b) => a - b)

    h.clock.advance(DEFAULTS.signingLeaseMs)
    assert.equal(await h.issuer.worker.runOnce(), 0, 'leased jobs are not taken until the lease has ended')
    assert.deepStrictEqual(await credentialsOf(ids), [])

    h.clock.advance(1)
    await h.issuer.worker.drain()
    const credentials = await credentialsOf(ids)
    assert.equal(credentials.length, 5)
    assert.deepStrictEqual(
      credentials.map((credential) => credential.statusListIndex).sort((a, b) => a - b),
      reserved,
      'the retry uses the reserved slots',
    )
    const [list] = await statusLists()
    assert.equal(list!.allocated, 5, 'no slot wasted')
    assert.deepStrictEqual(
      reserved,
      [0, 1, 2, 3, 4].map((position) => permuteIndex(position, list!.seed, list!.size)).sort((a, b) => a - b),
    )
    assert.deepStrictEqual((await eventsOf('issuance.credential_issued')).sort(), ids.map(String).sort())
    assert.equal(await h.storage.signingJobs.count(), 0)
  })

  it('a job signed twice (its lease ran out mid-signing) keeps the first stored credential and one event', async () => {
    const ids = await issueTo(3)
    const slow = await signClaimed(h.context, await claimPending(h.context, 1000))
    h.clock.advance(DEFAULTS.signingLeaseMs + 1)
    const fast = await signClaimed(h.context, await claimPending(h.context, 1000))
    assert.equal(fast.length, 3, 'the ended lease lets a second worker take the jobs')
    await storeSigned(h.context, fast)
    await storeSigned(h.context, slow)

    const credentials = await credentialsOf(ids)
    assert.equal(credentials.length, 3, 'one credential per issuance')
    assert.deepStrictEqual(credentials.map((credential) => credential.id).sort(), fast.map((signed) => signed.record.id).sort(), 'the first stored wins')
    assert.deepStrictEqual((await eventsOf('issuance.credential_issued')).sort(), ids.map(String).sort())
    assert.equal(await h.storage.signingJobs.count(), 0)
    const template = await h.issuer.achievements.read('chess', templateId)
    assert.equal(template.issuedCount, 3, 'counted once')
  })

  it('a failing signer releases the jobs; they are retried after a back-off and signed once', async () => {
    const ids = await issueTo(2)
    failSigning = true
    await h.issuer.worker.runOnce()
    assert.deepStrictEqual(await credentialsOf(ids), [])
    assert.equal(await h.storage.signingJobs.count(), 2)
    failSigning = false
    assert.equal(await h.issuer.worker.runOnce(), 0, 'not retried at once')
    h.clock.advance(300_000)
    await h.issuer.worker.drain()
    const credentials = await credentialsOf(ids)
    assert.equal(credentials.length, 2)
    assert.equal((await statusLists())[0]!.allocated, 2, 'the retry reused the slots')
    const keys = await h.keys.publicKeys('club:chess')
    // In issue order (ids are random, so their size says nothing about it).
    const inIssueOrder = ids.map((id) => credentials.find((credential) => credential.issuanceId === id)!)
    for (const [i, credential] of inIssueOrder.entries()) {
      await assertSignedCredential(credential.jwt, { keys, email: recipients(2)[i]!.email })
    }
  })

  it('failed signing is retried with exponential back-off: 1 s, doubling, at most 5 min', async () => {
    const [id] = await issueTo(1)
    failSigning = true
    await h.issuer.worker.runOnce()
    assert.equal(signCalls, 1)
    const waits = [1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000]
    for (const [i, wait] of waits.entries()) {
      h.clock.advance(wait - 1)
      await h.issuer.worker.runOnce()
      assert.equal(signCalls, i + 1, `retry ${i + 1} not before ${wait} ms`)
      h.clock.advance(1)
      await h.issuer.worker.runOnce()
      assert.equal(signCalls, i + 2, `retry ${i + 1} after ${wait} ms`)
    }
    failSigning = false
    h.clock.advance(300_000)
    await h.issuer.worker.drain()
    assert.equal((await credentialsOf([id!])).length, 1)
  })

  it('concurrent rounds sign every accepted issuance once, each with its own status slot', async () => {
    const ids = await issueTo(50)
    await Promise.all([h.issuer.worker.runOnce(), h.issuer.worker.runOnce(), h.issuer.worker.runOnce()])
    await h.issuer.worker.drain()
    const credentials = await credentialsOf(ids)
    assert.equal(credentials.length, 50)
    assert.equal(new Set(credentials.map((credential) => credential.statusListIndex)).size, 50)
    assert.equal((await eventsOf('issuance.credential_issued')).length, 50)
  })
})

/** The lease is configuration, at most two minutes. */
describe('the signing lease is the configured signingLeaseMs', { timeout: 20_000 }, () => {
  it("with a 2 s lease, worker B takes worker A's jobs after 2 s and not before; A's late credentials are refused", async () => {
    await h.close()
    h = createCoreHarness({ signingLeaseMs: 2000, worker: { onError: () => {} } })
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
    const ids = await issueTo(3)
    const workerA = await signClaimed(h.context, await claimPending(h.context, 1000))
    assert.equal(workerA.length, 3)

    h.clock.advance(2000)
    assert.deepStrictEqual(await claimPending(h.context, 1000), [], 'held for the whole lease')
    h.clock.advance(1)
    const workerB = await signClaimed(h.context, await claimPending(h.context, 1000))
    assert.equal(workerB.length, 3, 'taken once the lease has ended')
    await storeSigned(h.context, workerB)
    await storeSigned(h.context, workerA)

    const credentials = await credentialsOf(ids)
    assert.deepStrictEqual(credentials.map((credential) => credential.id).sort(), workerB.map((signed) => signed.record.id).sort(), "B's credentials, one each")
    assert.deepStrictEqual((await eventsOf('issuance.credential_issued')).sort(), ids.map(String).sort())
  })

  it('createIssuer refuses a lease below 1 s, above 2 min or not an integer, and takes both bounds', async () => {
    for (const signingLeaseMs of [999, 120_001, 1500.5, Number.NaN]) {
      assert.throws(() => createCoreHarness({ signingLeaseMs }), { name: 'TypeError', message: /signingLeaseMs must be an integer from 1000 to 120000/ })
    }
    for (const signingLeaseMs of [1000, 120_000]) {
      const bound = createCoreHarness({ signingLeaseMs })
      assert.equal(bound.context.config.signingLeaseMs, signingLeaseMs)
      await bound.close()
    }
    assert.equal(h.context.config.signingLeaseMs, DEFAULTS.signingLeaseMs)
    assert.equal(DEFAULTS.signingLeaseMs, 60_000)
  })
})
