/**
 * Proofs by JWT (docs/decisions/0050-worker-jobs-and-one-thread-pool.md § A proof round that keeps up):
 * the Data Integrity signer's `proveJwts`, which decodes each stored JWT in the thread and hands back the
 * proof's JSON text, makes byte for byte the proof text that `signMany` makes for the JWT's `vc`, on the
 * calling thread and in one or two threads over chunks, with the paths counted; a JWT whose `vc` breaks
 * the proof request's rules is refused with core's message, also in a thread.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SignJWT, decodeJwt } from 'jose'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import { contextLoader } from '../../../core/credentials/context-loader.ts'
import { proveJwts } from '../../../core/credentials/prove-jwts.ts'
import type { CredentialObject } from '../../../core/credentials/sign-data-integrity.ts'
import { clubDataIntegrityKeyOwner, clubDid } from '../../../core/did-documents/did.ts'
import type { SigningKey } from '../../../core/ports/key-store.ts'
import { signPendingCredentials } from '../../../core/signing-queue/sign-pending.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

describe('proofs by JWT', () => {
  let harness: CoreHarness
  let key: SigningKey
  let did: string
  let jwts: string[]
  let expected: string[]

  before(async () => {
    harness = createCoreHarness()
    await harness.issuer.clubs.create({ domain: 'chess', name: 'Chess' })
    const template = await harness.issuer.achievements.create('chess', { name: '끝내기 연구 🏁', description: 'Studied "rook" endgames.\nTwice.' })
    const recipients = Array.from({ length: 5 }, (_, i) => ({ externalUserId: `u${i}`, name: `מתן ${i}`, email: `p${i}@chess.example` }))
    await harness.issuer.issuances.issue('chess', { achievementFormId: template.id, recipients })
    assert.equal(await signPendingCredentials(harness.context), 5)
    const { data } = await harness.issuer.issuances.list('chess')
    jwts = await Promise.all(data.map(async ({ credentialId }) => (await harness.storage.credentials.findById(credentialId!))!.jwt))
    key = await harness.keys.activeKey(clubDataIntegrityKeyOwner('chess'))
    did = clubDid(harness.context.config, 'chess')
    // The reference: `signMany` over the decoded credentials, each proof written out as JSON.
    const here = createDataIntegritySigner({ threads: 0 })
    const requests = jwts.map((jwt) => {
      const { vc } = decodeJwt<{ vc: CredentialObject }>(jwt)
      return { credential: vc, created: vc.validFrom as string }
    })
    expected = (await here.signMany(key, `${did}#${key.kid}`, requests, contextLoader)).map((secured) => JSON.stringify(secured.proof))
  })
  after(() => harness.close())

  for (const threads of [0, 1, 2]) {
    it(`with ${threads} thread(s) makes the proof text signMany makes, in order, and counts the paths`, async () => {
      const counted: [string, number][] = []
      const signer = createDataIntegritySigner({ threads, chunkSize: 2, onProofs: (path, count) => counted.push([path, count]) })
      try {
        assert.deepStrictEqual(await proveJwts(signer, key, did, jwts, contextLoader), expected)
        assert.equal(
          counted.filter(([path]) => path === 'fast').reduce((sum, [, count]) => sum + count, 0),
          jwts.length,
          'every proof by the fast path, counted',
        )
      } finally {
        await signer.close()
      }
    })
  }

  it('without proveJwts in the signer, core decodes the JWTs and makes the same proof text', async () => {
    const signer = createDataIntegritySigner({ threads: 0 })
    assert.deepStrictEqual(await proveJwts({ signMany: signer.signMany }, key, did, jwts, contextLoader), expected)
  })

  it('refuses a JWT whose credential has no validFrom or has a proof, with core’s message, also in a thread', async () => {
    const { vc } = decodeJwt<{ vc: CredentialObject }>(jwts[0]!)
    const { validFrom: _, ...undated } = vc
    const secret = new Uint8Array(32)
    const jwtOf = (credential: CredentialObject) => new SignJWT({ vc: credential }).setProtectedHeader({ alg: 'HS256' }).sign(secret)
    const signer = createDataIntegritySigner({ threads: 1 })
    try {
      await assert.rejects(proveJwts(signer, key, did, [await jwtOf(undated)], contextLoader), /has no validFrom/)
      await assert.rejects(proveJwts(signer, key, did, [await jwtOf({ ...vc, proof: {} })], contextLoader), /already has a proof/)
      assert.deepStrictEqual(await proveJwts(signer, key, did, jwts, contextLoader), expected, 'the thread proves after a refusal')
    } finally {
      await signer.close()
    }
  })
})
