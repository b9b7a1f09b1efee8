/**
 * The proof rounds as a pipeline (docs/data-integrity.md § Signing): with no JWT waiting, a round is
 * signed while the next is claimed and queued (two in flight), and a round that comes back full is
 * followed by one twice its size; while JWTs wait, one round of the base size at a time. Every
 * credential gets its proof once either way.
 * @see docs/decisions/0050-worker-jobs-and-one-thread-pool.md
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import type { DataIntegritySigner } from '../../../core/ports/data-integrity-signer.ts'
import { signPendingCredentials } from '../../../core/signing-queue/sign-pending.ts'
import { createProofRounds } from '../../../core/worker/proof-round.ts'
import { createCoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

/** The real signer, a little slower, counting each call's size and the calls in flight at once. */
function countingSigner() {
  const inner = createDataIntegritySigner({ threads: 0 })
  const sizes: number[] = []
  let inFlight = 0
  let mostInFlight = 0
  const signer: DataIntegritySigner = {
    async signMany(key, verificationMethod, requests, loader) {
      sizes.push(requests.length)
      mostInFlight = Math.max(mostInFlight, ++inFlight)
      try {
        await new Promise((resolve) => setTimeout(resolve, 20))
        return await inner.signMany(key, verificationMethod, requests, loader)
      } finally {
        inFlight--
      }
    },
  }
  return { signer, sizes, mostInFlight: () => mostInFlight }
}

async function proveTen(jwtsWaiting: boolean) {
  const counting = countingSigner()
  const h = createCoreHarness({ dataIntegritySigner: counting.signer })
  try {
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
    const template = await h.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })
    await h.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(10) })
    assert.equal(await signPendingCredentials(h.context), 10, 'ten credentials, their proofs to be made')
    const rounds = createProofRounds(h.context, 2, { stopping: () => false, jwtsWaiting: () => jwtsWaiting, onError: (error) => assert.fail(String(error)) })
    rounds.start()
    await rounds.settled()
    const left = await h.storage.transaction((tx) => tx.credentials.claimUnproven(h.clock.now(), 60_000, 100), { concurrent: true })
    assert.equal(left.length, 0, 'every credential has its proof')
    return { sizes: counting.sizes, mostInFlight: counting.mostInFlight() }
  } finally {
    await h.close()
  }
}

describe('the proof rounds', () => {
  it('with no JWT waiting, sign one round while the next is claimed, and grow while a backlog waits', async () => {
    const { sizes, mostInFlight } = await proveTen(false)
    assert.deepEqual(sizes, [2, 4, 4], 'a full round of 2, then 4, then the 4 left')
    assert.equal(mostInFlight, 2, 'two rounds in flight')
  })

  it('while JWTs wait, run one round of the base size at a time', async () => {
    const { sizes, mostInFlight } = await proveTen(true)
    assert.deepEqual(sizes, [2, 2, 2, 2, 2])
    assert.equal(mostInFlight, 1)
  })
})
