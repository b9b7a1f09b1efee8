/**
 * The JSON-LD form on Deno (docs/data-integrity.md § Runtimes): a credential issued in-process on the
 * memory storage, secured by the Data Integrity signer (Ed25519 through Deno's WebCrypto, the libraries'
 * hashing through Deno's node:crypto), verified by @digitalbazaar/vc with the did:web document and the
 * status list answered by the issuer's fetch handler.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { createIssuer, defaultUrls } from '../../index.ts'
import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import { proveJwts } from '../../core/credentials/prove-jwts.ts'
import { signDataIntegrity, type CredentialObject } from '../../core/credentials/sign-data-integrity.ts'
import { clubDataIntegrityKeyOwner, clubDid } from '../../core/did-documents/did.ts'
import { createKeyStore } from '../../core/keys/create-key-store.ts'
import { verifyDataIntegrity } from '../support/data-integrity-verifier.ts'
import type { RawResponse } from '../support/api-harness.ts'

describe('the JSON-LD form on Deno', () => {
  it('an eddsa-rdfc-2022 proof made here verifies with @digitalbazaar/vc, and a tampered copy does not', async () => {
    assert.ok('Deno' in globalThis, 'runs on Deno')
    const storage = createMemoryStorage()
    const keys = createKeyStore({ storage, masterKey: new Uint8Array(32).fill(3) })
    const issuer = createIssuer({ storage, keys, urls: defaultUrls(8787) })
    try {
      await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const template = await issuer.achievements.create('chess', { name: 'Endgame study', description: 'Studied rook endgames.', tag: ['chess'] })
      const recipients = [{ externalUserId: 'u1', name: 'Kim Minsu', email: 'minsu@chess.example' }]
      const { result } = await issuer.issuances.issue('chess', { achievementFormId: template.id, mode: 'none', recipients })
      const [item] = result.results
      assert.ok(item?.status === 'issued')
      await issuer.worker.drain()
      const { jwt } = await issuer.issuances.credential('chess', item.resourceId)
      const credential = decodeJwt<{ vc: CredentialObject }>(jwt).vc

      const key = await keys.activeKey(clubDataIntegrityKeyOwner('chess'))
      // Made in a worker thread (node:worker_threads through Deno's Node compatibility), as on Node, and
      // byte for byte what the calling thread makes.
      const threaded = createDataIntegritySigner({ threads: 1 })
      const [secured, byJwt] = await Promise.all([
        signDataIntegrity(threaded, key, clubDid(issuer.config, 'chess'), [credential]).then(([one]) => one),
        // The proof round's way: the JWT handed to the thread, decoded there, the proof's JSON text back.
        proveJwts(threaded, key, clubDid(issuer.config, 'chess'), [jwt]).then(([one]) => one),
      ]).finally(() => threaded.close())
      const [here] = await signDataIntegrity(createDataIntegritySigner({ threads: 0 }), key, clubDid(issuer.config, 'chess'), [credential])
      assert.deepStrictEqual(secured, here)
      assert.equal(byJwt, JSON.stringify(here!.proof))

      const get = async (url: string): Promise<RawResponse> => {
        const response = await issuer.fetch(new Request(url))
        const text = await response.text()
        const body = /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : null
        return { status: response.status, headers: response.headers, text, body }
      }
      const verdict = await verifyDataIntegrity(secured, get)
      assert.equal(verdict.verified, true, JSON.stringify(verdict))
      const tampered = structuredClone(secured!) as { credentialSubject: { achievement: { name: string } } }
      tampered.credentialSubject.achievement.name = 'Another achievement'
      assert.equal((await verifyDataIntegrity(tampered, get)).verified, false)
    } finally {
      await issuer.close()
    }
  })
})
