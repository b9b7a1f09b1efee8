/**
 * JWTs first (docs/data-integrity.md § Signing): the worker's proof round runs beside its loop, so a
 * proof round in flight does not hold up the next JWT claim; and a stop waits for it to store its proofs.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import type { DataIntegritySigner } from '../../../core/ports/data-integrity-signer.ts'
import { createCoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

/** The real signer behind a gate the test opens: a proof round that takes as long as the test wants. */
function gatedSigner() {
  const inner = createDataIntegritySigner({ threads: 0 })
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  let entered!: () => void
  const waiting = new Promise<void>((resolve) => (entered = resolve))
  const signer: DataIntegritySigner = {
    async signMany(...args) {
      entered()
      await opened
      return inner.signMany(...args)
    },
  }
  return { signer, open, waiting }
}

describe('the worker and the proof round', () => {
  it('signs a new JWT round while a proof round is still being signed, and its stop stores the proofs', async () => {
    const gate = gatedSigner()
    const h = createCoreHarness({ dataIntegritySigner: gate.signer, worker: { pollMs: 10 } })
    try {
      await h.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
      const template = await h.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })
      const first = await h.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(1) })
      h.issuer.worker.start()
      await gate.waiting
      // The first credential's proof round is in flight, held at the gate: a second batch comes.
      const second = await h.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(1, 'later') })
      const secondId = second.result.results[0]!.status === 'issued' ? second.result.results[0]!.resourceId : NaN
      for (;;) {
        const credential = await h.storage.credentials.findByIssuance(secondId)
        if (credential) {
          assert.equal(credential.proof.state, 'pending', 'its JWT first, its proof later')
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const firstId = first.result.results[0]!.status === 'issued' ? first.result.results[0]!.resourceId : NaN
      assert.equal((await h.storage.credentials.findByIssuance(firstId))?.proof.state, 'pending', 'the proof round is still held')
      gate.open()
      await h.issuer.worker.stop()
      assert.equal((await h.storage.credentials.findByIssuance(firstId))?.proof.state, 'made', 'the round in flight stored its proof before the stop resolved')
    } finally {
      gate.open()
      await h.close()
    }
  })

  it('releaseHeld() puts the proof round in flight back at once, for another worker; a proof stored meanwhile stays', async () => {
    const gate = gatedSigner()
    const h = createCoreHarness({ dataIntegritySigner: gate.signer, worker: { pollMs: 10 } })
    try {
      await h.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
      const template = await h.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })
      await h.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(2) })
      h.issuer.worker.start()
      await gate.waiting
      assert.equal(await h.storage.transaction((tx) => tx.credentials.claimUnproven(h.clock.now(), 60_000, 10)).then((c) => c.length), 0, 'leased by the round')
      assert.equal(await h.issuer.worker.releaseHeld(), 2)
      assert.equal(await h.issuer.worker.releaseHeld(), 0, 'nothing held twice')
      // Another worker takes them without waiting for the lease (the clock does not move).
      const other = await h.storage.transaction((tx) => tx.credentials.claimUnproven(h.clock.now(), 60_000, 10))
      assert.equal(other.length, 2)
      gate.open()
      await h.issuer.worker.stop()
      for (const { credential } of other) assert.equal((await h.storage.credentials.findByIssuance(credential.issuanceId))?.proof.state, 'made')
    } finally {
      gate.open()
      await h.close()
    }
  })
})
