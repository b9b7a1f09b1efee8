/**
 * The Data Integrity signer's worker threads (docs/data-integrity.md § Signing): the proofs made in the
 * threads are byte for byte those made on the calling thread (the thread's code is a string of its
 * own), in request order, with one and with two threads; the contexts come from the caller's document
 * loader, asked on the first call only when it marks them static; a loader's error comes back naming
 * the URL; closed, the signer refuses work it had not finished.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { createIssuer, defaultUrls, type Issuer } from '../../index.ts'
import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import { contextLoader } from '../../core/credentials/context-loader.ts'
import type { CredentialObject } from '../../core/credentials/sign-data-integrity.ts'
import { clubDataIntegrityKeyOwner, clubDid } from '../../core/did-documents/did.ts'
import { createKeyStore } from '../../core/keys/create-key-store.ts'
import type { DocumentLoader, ProofRequest } from '../../core/ports/data-integrity-signer.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'

describe('createDataIntegritySigner with worker threads', () => {
  let issuer: Issuer
  let key: SigningKey
  let verificationMethod: string
  let requests: ProofRequest[]
  let onTheCallingThread: Record<string, unknown>[]

  before(async () => {
    const storage = createMemoryStorage()
    const keys = createKeyStore({ storage, masterKey: new Uint8Array(32).fill(5) })
    issuer = createIssuer({ storage, keys, urls: defaultUrls(8787) })
    await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    const template = await issuer.achievements.create('chess', { name: 'Endgame study', description: 'Studied rook endgames.' })
    const recipients = Array.from({ length: 9 }, (_, i) => ({ externalUserId: `u${i}`, name: `Player ${i}`, email: `p${i}@chess.example` }))
    const { result } = await issuer.issuances.issue('chess', { achievementFormId: template.id, mode: 'none', recipients })
    await issuer.worker.drain()
    requests = []
    for (const item of result.results) {
      if (item.status !== 'issued') throw new Error('not issued')
      const vc = decodeJwt<{ vc: CredentialObject }>((await issuer.issuances.credential('chess', item.resourceId)).jwt).vc
      requests.push({ credential: vc, created: vc.validFrom as string })
    }
    key = await keys.activeKey(clubDataIntegrityKeyOwner('chess'))
    verificationMethod = `${clubDid(issuer.config, 'chess')}#${key.kid}`
    const here = createDataIntegritySigner({ threads: 0 })
    onTheCallingThread = await here.signMany(key, verificationMethod, requests, contextLoader)
  })
  after(() => issuer.close())

  for (const threads of [1, 2]) {
    it(`${threads} thread(s) make the proofs the calling thread makes, in request order, over chunks of 2`, async () => {
      const signer = createDataIntegritySigner({ threads, chunkSize: 2 })
      try {
        const secured = await signer.signMany(key, verificationMethod, requests, contextLoader)
        assert.deepStrictEqual(secured, onTheCallingThread)
        assert.deepStrictEqual(
          secured.map((credential) => credential.id),
          requests.map(({ credential }) => credential.id),
        )
        assert.ok(
          requests.every(({ credential }) => !('proof' in credential)),
          'the inputs are not changed',
        )
      } finally {
        await signer.close()
      }
    })
  }

  it("asks the caller's loader for a static context on the first call only, and a loader's error names the URL", async () => {
    const signer = createDataIntegritySigner({ threads: 1, chunkSize: 3 })
    try {
      const asked: string[] = []
      const counting: DocumentLoader = async (url) => {
        asked.push(url)
        return contextLoader(url)
      }
      await signer.signMany(key, verificationMethod, requests, counting)
      assert.ok(asked.includes('https://www.w3.org/ns/credentials/v2'), asked.join(', '))
      // The first proof may ask twice (the credential and the proof options are processed side by side).
      const first = asked.length
      await signer.signMany(key, verificationMethod, requests.slice(0, 2), counting)
      assert.equal(asked.length, first, 'a later call asks for none again')

      const refusing: DocumentLoader = async (url) => {
        throw new Error(`not here: ${url}`)
      }
      const other = {
        ...requests[0]!,
        credential: { ...requests[0]!.credential, '@context': ['https://www.w3.org/ns/credentials/v2', 'https://example.org/unheld/v1'] },
      }
      await assert.rejects(signer.signMany(key, verificationMethod, [other], refusing), /https:\/\/example\.org\/unheld\/v1/)
    } finally {
      await signer.close()
    }
  })

  it('refuses a key that is not Ed25519, and work not finished when it closes', async () => {
    const signer = createDataIntegritySigner({ threads: 1, chunkSize: 1 })
    await assert.rejects(signer.signMany({ ...key, alg: 'ES256' }, verificationMethod, requests, contextLoader), /Ed25519 key, not ES256/)
    const refused = assert.rejects(signer.signMany(key, verificationMethod, requests, contextLoader), /closed/)
    await signer.close()
    await refused
  })
})
