/**
 * The proof round hands a signer that has `proveJwts` the stored JWTs, not decoded credentials, and
 * stores the proof texts it gives back as they are (docs/decisions/0050-worker-jobs-and-one-thread-pool.md
 * § A proof round that keeps up); the JSON-LD form is then the JWT's credential with that proof.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import { jsonLdFormOf } from '../../../core/credentials/json-ld-form.ts'
import type { DataIntegritySigner } from '../../../core/ports/data-integrity-signer.ts'
import { provePendingCredentials } from '../../../core/signing-queue/prove-pending.ts'
import { signPendingCredentials } from '../../../core/signing-queue/sign-pending.ts'
import { createCoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

describe('the proof round with a signer that proves JWTs', () => {
  it('hands it the stored JWTs, never calls signMany, and stores the proof texts it returns', async () => {
    const inner = createDataIntegritySigner({ threads: 1, chunkSize: 2 })
    const handed: string[] = []
    const signer: DataIntegritySigner = {
      signMany: () => Promise.reject(new Error('signMany is not the proof round’s way when proveJwts is there')),
      async proveJwts(key, verificationMethod, jwts, documentLoader) {
        handed.push(...jwts)
        return inner.proveJwts(key, verificationMethod, jwts, documentLoader)
      },
      close: () => inner.close(),
    }
    const harness = createCoreHarness({ dataIntegritySigner: signer })
    try {
      await harness.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
      const template = await harness.issuer.achievements.create('chess', { name: 'Opening', description: 'Studied the main openings.' })
      await harness.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: recipients(3) })
      assert.equal(await signPendingCredentials(harness.context), 3)
      assert.equal(await provePendingCredentials(harness.context, 10), 3)
      const { data } = await harness.issuer.issuances.list('chess')
      const records = await Promise.all(data.map(async ({ credentialId }) => (await harness.storage.credentials.findById(credentialId!))!))
      assert.deepStrictEqual([...handed].sort(), records.map((record) => record.jwt).sort())
      for (const record of records) {
        const form = jsonLdFormOf(record)
        assert.equal(form.state, 'ready')
        if (form.state !== 'ready') continue
        const { proof, ...credential } = form.credential
        assert.deepStrictEqual(credential, decodeJwt(record.jwt).vc)
        assert.equal((proof as { created: string }[])[0]!.created, credential.validFrom)
      }
    } finally {
      await harness.close()
    }
  })
})
