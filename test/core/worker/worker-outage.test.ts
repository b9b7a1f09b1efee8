import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { webCryptoSigner } from '../../../core/credentials/webcrypto-signer.ts'
import { StorageUnavailable } from '../../../core/errors.ts'
import { clubKeyOwner } from '../../../core/did-documents/did.ts'
import type { JwtSigner } from '../../../core/ports/signer.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

/**
 * The storage goes away while the worker's pipeline holds two rounds (found again by a later
 * database outage test): round n fails to store, so the worker drops round n + 1, whose signing is
 * still in flight. That round failing later too (its release cannot be stored either) must be reported
 * as a worker error, never escape as an unhandled rejection, which ends a server process.
 */

let h: CoreHarness
let templateId: number
let down = false
const errors: unknown[] = []
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => void unhandled.push(reason)

function newGate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}
/** Call n of the signer waits for gates[n]; the second call then fails, as a signer on a dying thread would. */
let gates: ReturnType<typeof newGate>[] = []
let signCalls = 0
const signer: JwtSigner = {
  async signMany(key, header, payloads) {
    const call = signCalls++
    await gates[call]?.opened
    if (call === 1) throw new Error('the signing thread went away')
    return webCryptoSigner.signMany(key, header, payloads)
  },
}

beforeEach(async () => {
  down = false
  errors.length = 0
  unhandled.length = 0
  signCalls = 0
  gates = [newGate(), newGate()]
  process.on('unhandledRejection', onUnhandled)
  h = createCoreHarness({ signer, worker: { pollMs: 10, batchSize: 5, onError: (error) => void errors.push(error) } })
  const storage = h.context.storage
  const transaction = storage.transaction.bind(storage)
  storage.transaction = ((work: never) => {
    if (down) return Promise.reject(new StorageUnavailable('database unavailable (test)'))
    return transaction(work)
  }) as typeof storage.transaction
  await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
})
afterEach(async () => {
  for (const gate of gates) gate.open()
  down = false
  await h.close()
  process.off('unhandledRejection', onUnhandled)
})

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i > 1000) assert.fail(`never: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('the worker when the storage goes away mid-pipeline', () => {
  it('a dropped round that fails later is reported, not left as an unhandled rejection; every job is signed once the storage is back', async () => {
    const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, mode: 'none', recipients: recipients(10) })
    const ids = result.results.map((item) => (item as { resourceId: number }).resourceId)
    // The club's signing key is made on first use. Made here, before the worker starts: otherwise both
    // rounds race to make it, and when round 2 wins it reaches the signer first and takes round 1's gate.
    await h.context.keys.activeKey(clubKeyOwner('chess'))
    h.issuer.worker.start()
    // Round 2 is being signed while the worker waits on round 1 to store it.
    await until(() => signCalls === 2, 'two rounds in flight')
    down = true
    gates[0]!.open()
    await until(() => errors.length >= 1, 'the failed store reported')
    gates[1]!.open()
    await until(() => errors.length >= 2, 'the dropped round reported')
    // A turn of the event loop for an unhandled rejection to be seen.
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.deepEqual(unhandled, [], 'no unhandled rejection')
    assert.ok(
      errors.every((error) => error instanceof StorageUnavailable),
      String(errors),
    )

    // Back: the leased jobs are taken again once their lease ends, and each is signed once.
    down = false
    h.clock.advance(10 * 60_000)
    await until(() => signCalls >= 3, 'signing again')
    await h.issuer.worker.stop()
    await h.issuer.worker.drain()
    const stored = await h.storage.credentials.findByIssuances(ids)
    assert.equal(stored.length, 10)
    assert.equal(new Set(stored.map((credential) => credential.issuanceId)).size, 10)
  })
})
