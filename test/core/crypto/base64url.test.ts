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

  it("matches Node's base64url at every length around the short-input table's limit and below 64", () => {
    for (const length of [...Array.from({ length: 64 }, (_, i) => i), 510, 511, 512, 513, 514, 515]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 151 + length * 7) & 0xff)
      assert.equal(toBase64Url(bytes), Buffer.from(bytes).toString('base64url'), `length ${length}`)
      assert.equal(toBase64Url(bytes.fill(0xff)), Buffer.from(bytes).toString('base64url'), `length ${length}, all ones`)
    }
  })

  it('accepts padding and refuses characters outside the alphabet', () => {
    assert.deepStrictEqual(fromBase64Url('YQ=='), new Uint8Array([97]))
    for (const bad of ['a+b', 'a/b', 'a b', 'ä', 'YQ===']) assert.throws(() => fromBase64Url(bad), TypeError)
  })
})
