import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { toBase58btc } from '../../../core/crypto/base58btc.ts'

const text = (value: string) => new TextEncoder().encode(value)

describe('toBase58btc', () => {
  it('encodes the test vectors of the base58 encoding draft (draft-msporny-base58-03, section 5)', () => {
    assert.equal(toBase58btc(text('Hello World!')), '2NEpo7TZRRrLZSi2U')
    assert.equal(toBase58btc(text('The quick brown fox jumps over the lazy dog.')), 'USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z')
  })

  it('encodes each leading zero byte as a 1, and nothing as nothing', () => {
    assert.equal(toBase58btc(new Uint8Array(0)), '')
    assert.equal(toBase58btc(Uint8Array.from([0])), '1')
    assert.equal(toBase58btc(Uint8Array.from([0, 0, 0])), '111')
    assert.equal(toBase58btc(Uint8Array.from([0x00, 0x00, 0x28, 0x7f, 0xb4, 0xcd])), '11233QC4')
    assert.equal(toBase58btc(Uint8Array.from([57])), 'z')
    assert.equal(toBase58btc(Uint8Array.from([58])), '21')
  })
})
