/**
 * The Node signer's worker threads (payloads cross to the threads as one joined string): every
 * JWS comes back in payload order and verifies with jose, with one and with two threads, also when a
 * payload holds a line break (sent as an array then).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { compactVerify, exportJWK, generateKeyPair } from 'jose'
import { createNodeSigner } from '../../adapters/node/signer.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'

async function testKey(): Promise<{ key: SigningKey; publicKey: CryptoKey }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true })
  const key = { kid: 'k1', privateKey, privateJwk: await exportJWK(privateKey) } as unknown as SigningKey
  return { key, publicKey: publicKey as CryptoKey }
}

describe('createNodeSigner with worker threads', () => {
  for (const threads of [1, 2]) {
    it(`signs 200 payloads on ${threads} thread(s), in order, each verifiable, a line break included`, async () => {
      const { key, publicKey } = await testKey()
      const signer = createNodeSigner({ threads, minPoolBatch: 1 })
      try {
        const payloads = Array.from({ length: 200 }, (_, i) => JSON.stringify({ n: i, text: `recipient ${i} ü` }))
        payloads[7] = '{"n":7,\n"text":"a raw line break"}'
        const jwts = await signer.signMany(key, { alg: 'ES256', typ: 'JWT', kid: 'k1' }, payloads)
        assert.equal(jwts.length, payloads.length)
        for (const [i, jwt] of jwts.entries()) {
          const { payload, protectedHeader } = await compactVerify(jwt, publicKey)
          assert.equal(new TextDecoder().decode(payload), payloads[i])
          assert.equal(protectedHeader.kid, 'k1')
        }
        // Without a line break anywhere: the joined path alone.
        const plain = payloads.map((_, i) => JSON.stringify({ n: i }))
        const again = await signer.signMany(key, { alg: 'ES256' }, plain)
        for (const [i, jwt] of again.entries()) assert.equal(new TextDecoder().decode((await compactVerify(jwt, publicKey)).payload), plain[i])
      } finally {
        await signer.close()
      }
    })
  }
})
