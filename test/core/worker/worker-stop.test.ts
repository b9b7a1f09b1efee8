import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { claimPending, signClaimed, storeSigned } from '../../../core/signing-queue/sign-pending.ts'
import { webCryptoSigner } from '../../../core/credentials/webcrypto-signer.ts'
import type { JwtSigner } from '../../../core/ports/signer.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

/**
 * The worker at shutdown (docs/shutdown.md): `stop()` claims nothing new and stores the round it holds;
 * `releaseHeld()` puts a held round back for another worker at once, and a job then signed by both is
 * stored once.
 */

let h: CoreHarness
let templateId: number
/** The signer waits for `open()`: the test holds the worker in the middle of a round. */
let gate: { opened: Promise<void>; open: () => void }
let signCalls = 0
let mailed = 0
const gatedSigner: JwtSigner = {
  async signMany(key, header, payloads) {
    signCalls++
    await gate.opened
    return webCryptoSigner.signMany(key, header, payloads)
  },
}

function newGate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

beforeEach(async () => {
  gate = newGate()
  signCalls = 0
  mailed = 0
  h = createCoreHarness({
    signer: gatedSigner,
    notifier: { send: async () => void mailed++ },
    worker: { pollMs: 20, onError: (error) => assert.fail(String(error)) },
  })
  await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
})
afterEach(async () => {
  gate.open()
  await h.close()
})

async function issueTo(count: number, prefix?: string, mode: 'none' | 'email' = 'none'): Promise<number[]> {
  const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, mode, recipients: recipients(count, prefix) })
  assert.equal(result.summary.ok, count, JSON.stringify(result.results.slice(0, 1)))
  return result.results.map((item) => (item as { resourceId: number }).resourceId)
}

async function untilSigning(): Promise<void> {
  for (let i = 0; signCalls === 0; i++) {
    if (i > 500) assert.fail('the worker never started signing')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('the worker at shutdown (docs/shutdown.md)', () => {
  it('stop() during a round: the round is signed and stored, jobs queued meanwhile stay unclaimed for the next worker', async () => {
    const held = await issueTo(5)
    h.issuer.worker.start()
    await untilSigning()
    const queued = await issueTo(3, 'late')
    const stopped = h.issuer.worker.stop()
    await new Promise((resolve) => setTimeout(resolve, 50))
    gate.open()
    await stopped
    assert.equal((await h.storage.credentials.findByIssuances(held)).length, 5, 'the held round is stored')
    assert.equal((await h.storage.credentials.findByIssuances(queued)).length, 0, 'nothing new was claimed')
    const claimable = await h.storage.transaction((tx) => tx.signingJobs.claim(h.clock.now(), 60_000, 100))
    assert.deepEqual(claimable.map((job) => job.issuanceId).sort(), [...queued].sort(), 'the queued jobs are free for another worker now')
    assert.equal(signCalls, 1)
  })

  it('stop() during a round: its mail is queued with the credentials, and no mail round is claimed after the stop', async () => {
    const held = await issueTo(4, 'mail', 'email')
    h.issuer.worker.start()
    await untilSigning()
    const stopped = h.issuer.worker.stop()
    gate.open()
    await stopped
    assert.equal((await h.storage.credentials.findByIssuances(held)).length, 4)
    assert.equal(mailed, 0, 'no mail sent after the stop')
    const waiting = await h.storage.transaction((tx) => tx.outbox.claimDue(h.clock.now(), 60_000, 100, 8))
    assert.equal(waiting.length, 4, 'the mail of the stored round waits in the outbox, unclaimed, for the next worker')
  })

  it('releaseHeld() puts the held round back at once; a job then signed by two workers is stored once', async () => {
    const held = await issueTo(5)
    h.issuer.worker.start()
    await untilSigning()
    assert.equal(await h.issuer.worker.releaseHeld(), 5)
    assert.equal(await h.issuer.worker.releaseHeld(), 0, 'nothing held twice')

    // Another worker takes the jobs without waiting for the lease (the clock does not move), signs and stores them.
    const other = await claimPending(h.context, 100)
    assert.deepEqual(other.map((item) => item.job.issuanceId).sort(), [...held].sort())
    gate.open()
    await storeSigned(h.context, await signClaimed(h.context, other))
    await h.issuer.worker.stop()

    const stored = await h.storage.credentials.findByIssuances(held)
    assert.equal(stored.length, 5, 'one credential per issuance')
    assert.equal(new Set(stored.map((credential) => credential.issuanceId)).size, 5)
    const page = await h.issuer.events.list('chess', { limit: '100' })
    assert.equal(page.data.filter((event) => event.type === 'issuance.credential_issued').length, 5, 'one event per issuance')
    assert.equal(await h.storage.signingJobs.count(), 0)
  })
})
