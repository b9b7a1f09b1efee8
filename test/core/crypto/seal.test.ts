import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { createSealer } from '../../../core/crypto/seal.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'

describe('sealing private keys at rest', () => {
  it('opens what it sealed, for any text and associated data', async () => {
    const sealer = await createSealer(MASTER_KEY)
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.string(), async (plaintext, associated) => {
        const sealed = await sealer.seal(plaintext, associated)
        assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/)
        assert.equal(await sealer.open(sealed, associated), plaintext)
      }),
      { numRuns: 50 },
    )
  })

  it('seals the same text differently every time (fresh IV) and never contains it', async () => {
    const sealer = await createSealer(MASTER_KEY)
    const secret = '{"kty":"EC","d":"c2VjcmV0LXByaXZhdGUta2V5LW1hdGVyaWFs"}'
    const a = await sealer.seal(secret, 'kid')
    const b = await sealer.seal(secret, 'kid')
    assert.notEqual(a, b)
    for (const sealed of [a, b]) {
      assert.ok(!sealed.includes('c2VjcmV0'))
      assert.throws(() => JSON.parse(sealed))
    }
  })

  it('refuses to open with other associated data, another master key, or a changed byte', async () => {
    const sealer = await createSealer(MASTER_KEY)
    const sealed = await sealer.seal('private', 'kid-1')
    await assert.rejects(sealer.open(sealed, 'kid-2'))
    await assert.rejects((await createSealer(new Uint8Array(32).fill(1))).open(sealed, 'kid-1'))
    const [version, iv, body] = sealed.split('.') as [string, string, string]
    const flipped = body.slice(0, -2) + (body.at(-2) === 'A' ? 'B' : 'A') + body.at(-1)
    await assert.rejects(sealer.open(`${version}.${iv}.${flipped}`, 'kid-1'))
  })

  it('refuses values that are not sealed values', async () => {
    const sealer = await createSealer(MASTER_KEY)
    for (const bad of ['', 'v1', 'v1.', 'v2.aaaa.bbbb', '{"d":"x"}', 'v1.!!!.???']) {
      await assert.rejects(sealer.open(bad, 'kid'))
    }
  })

  it('refuses a master key that is not 32 bytes', async () => {
    await assert.rejects(createSealer(new Uint8Array(16)), TypeError)
  })
})
