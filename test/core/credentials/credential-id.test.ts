/**
 * Credential ids: RFC 9562 version 7 UUIDs (core/credentials/credential-id.ts). Checked against the
 * RFC's own example, and for what the ids are for: later ones sort after earlier ones, and every random
 * bit the format leaves is random.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { timeOrderedUuid } from '../../../core/credentials/credential-id.ts'
import { webCryptoRandom } from '../../../core/ports/random.ts'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('credential ids', () => {
  it("the RFC 9562 example (Appendix A.6): 0x017F22E279B0 ms with the example's random bits", () => {
    // rand_a 0xCC3 and rand_b 0x18C4DC0C0C07398F, placed where the format takes them from.
    const random = Uint8Array.from([0, 0, 0, 0, 0, 0, 0x0c, 0xc3, 0x18, 0xc4, 0xdc, 0x0c, 0x0c, 0x07, 0x39, 0x8f])
    assert.equal(timeOrderedUuid(0x017f22e279b0, random), '017f22e2-79b0-7cc3-98c4-dc0c0c07398f')
  })

  it('the version and variant bits are set whatever the random bytes, and the milliseconds read back', () => {
    for (const fill of [0x00, 0xff, 0x5a]) {
      const id = timeOrderedUuid(1_900_000_000_123, new Uint8Array(16).fill(fill))
      assert.match(id, UUID_V7)
      assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), 1_900_000_000_123)
    }
    assert.equal(timeOrderedUuid(2 ** 48 - 1, new Uint8Array(16)), 'ffffffff-ffff-7000-8000-000000000000')
    assert.equal(timeOrderedUuid(0, new Uint8Array(16).fill(0xff)), '00000000-0000-7fff-bfff-ffffffffffff')
  })

  it('an id made a millisecond later sorts after, as text too, so that stored ids append', () => {
    const ids = [1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_255, 1_700_000_000_256, 1_700_000_065_536, 1_800_000_000_000].map((ms) =>
      timeOrderedUuid(ms, webCryptoRandom.bytes(16)),
    )
    assert.deepStrictEqual([...ids].sort(), ids)
  })

  it('74 random bits: every one of them changes when its random bit does', () => {
    const base = timeOrderedUuid(1_900_000_000_000, new Uint8Array(16))
    const changed = new Set<string>()
    for (let byte = 6; byte < 16; byte++) {
      for (let bit = 0; bit < 8; bit++) {
        const random = new Uint8Array(16)
        random[byte] = 1 << bit
        const id = timeOrderedUuid(1_900_000_000_000, random)
        const versionOrVariant = (byte === 6 && bit >= 4) || (byte === 8 && bit >= 6)
        assert.equal(id === base, versionOrVariant, `byte ${byte} bit ${bit}`)
        if (!versionOrVariant) changed.add(id)
      }
    }
    assert.equal(changed.size, 74)
  })
})
