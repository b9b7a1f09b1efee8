import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { fromBase64Url, toBase64Url } from '../../../core/crypto/base64url.ts'

describe('base64url', () => {
  it("round-trips any bytes and matches Node's base64url", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        const text = toBase64Url(bytes)
        assert.equal(text, Buffer.from(bytes).toString('base64url'))
        assert.deepStrictEqual(fromBase64Url(text), new Uint8Array(bytes))
      }),
      { numRuns: 60 },
    )
  })

  it('accepts padding and refuses characters outside the alphabet', () => {
    assert.deepStrictEqual(fromBase64Url('YQ=='), new Uint8Array([97]))
    for (const bad of ['a+b', 'a/b', 'a b', 'ä', 'YQ===']) assert.throws(() => fromBase64Url(bad), TypeError)
  })
})
