import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkPng, PNG_LIMITS } from '../../../core/designs/check-png.ts'
import { imageProblem } from '../../../core/designs/image.ts'
import { defaultBadgePng } from '../../../core/designs/default-badge.ts'
import { decompressionBomb, rawSize, samplePng } from '../../support/png-samples.ts'

/**
 * Uploaded PNGs are decoded before they are accepted: the inflated data must be exactly what the header
 * says, and no more than `PNG_LIMITS` allows, so that no stored image costs more to draw than its bound.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */
describe('checkPng', () => {
  it('accepts honest PNGs: RGBA, 16-bit grey, palette, interlaced, and the default badge', async () => {
    assert.equal(await checkPng(samplePng({ width: 3, height: 2 })), null)
    assert.equal(await checkPng(samplePng({ width: 5, height: 7, bitDepth: 16, colourType: 0 })), null)
    assert.equal(await checkPng(samplePng({ width: 9, height: 3, bitDepth: 1, colourType: 3, palette: Uint8Array.of(0, 0, 0, 255, 255, 255) })), null)
    // Adam7 of 10×10 RGBA, pass by pass: rows × (filter byte + 4 bytes a pixel of the pass's width).
    const interlacedSize = [2 * 9, 2 * 5, 1 * 13, 3 * 9, 2 * 21, 5 * 21, 5 * 41].reduce((a, b) => a + b)
    assert.equal(await checkPng(samplePng({ width: 10, height: 10, interlace: 1, raw: new Uint8Array(interlacedSize) })), null)
    assert.equal(await checkPng(await defaultBadgePng()), null)
  })

  it('refuses a decompression bomb (1×1 declared, 250 MB inflated) at the first byte past what its header implies', async () => {
    const bomb = decompressionBomb()
    assert.ok(bomb.length < 256 * 1024, 'small enough to pass the upload size check')
    // Inflating stops at the first byte past the 5 the header implies (bench/event-loop.bench.ts measures the cost).
    assert.equal(await imageProblem('image/png', bomb), 'image-png-size-mismatch')
  })

  it('refuses image data shorter or longer than the header implies', async () => {
    const header = { width: 4, height: 4 }
    assert.equal(await checkPng(samplePng({ ...header, raw: new Uint8Array(rawSize(header) - 1) })), 'image-png-size-mismatch')
    assert.equal(await checkPng(samplePng({ ...header, raw: new Uint8Array(rawSize(header) + 1) })), 'image-png-size-mismatch')
    // The right size for 8-bit samples, declared as 16-bit.
    assert.equal(await checkPng(samplePng({ ...header, bitDepth: 16, raw: new Uint8Array(rawSize(header)) })), 'image-png-size-mismatch')
    // Non-interlaced data under an interlaced header.
    assert.equal(
      await checkPng(samplePng({ width: 10, height: 10, interlace: 1, raw: new Uint8Array(rawSize({ width: 10, height: 10 })) })),
      'image-png-size-mismatch',
    )
  })

  it('refuses an honest PNG larger than what is drawn: a side over 1024, or over the decoded budget', async () => {
    assert.equal(await checkPng(samplePng({ width: 2048, height: 2048, bitDepth: 16 })), 'image-dimensions')
    assert.equal(await checkPng(samplePng({ width: 1025, height: 1, colourType: 0 })), 'image-dimensions')
    assert.equal(await checkPng(samplePng({ width: 1024, height: 1024, bitDepth: 16 })), 'image-decoded-too-large')
    assert.equal(await checkPng(samplePng({ width: 1024, height: 1024 })), null, 'exactly the budget')
    assert.equal(rawSize({ width: 1024, height: 1024 }), PNG_LIMITS.maxDecodedBytes)
  })

  it('refuses what cannot be decoded', async () => {
    const good = samplePng({ width: 2, height: 2 })
    const flip = (offset: number) => Uint8Array.from(good, (byte, i) => (i === offset ? byte ^ 0xff : byte))
    assert.equal(await checkPng(flip(30)), 'image-png-undecodable', 'a wrong IHDR CRC')
    assert.equal(await checkPng(samplePng({ width: 2, height: 2, bitDepth: 4, colourType: 6 })), 'image-png-undecodable', 'RGBA has no 4-bit depth')
    assert.equal(await checkPng(samplePng({ width: 2, height: 2, interlace: 2 })), 'image-png-undecodable', 'no interlace method 2')
    assert.equal(await checkPng(samplePng({ width: 2, height: 2, colourType: 3 })), 'image-png-undecodable', 'a palette image without PLTE')
    const badFilter = new Uint8Array(rawSize({ width: 2, height: 2 }))
    badFilter[9] = 5
    assert.equal(await checkPng(samplePng({ width: 2, height: 2, raw: badFilter })), 'image-png-undecodable', 'filter type 5 on the second row')
    const notZlib = samplePng({ width: 2, height: 2 })
    notZlib.set([0x12, 0x34], 8 + 25 + 8)
    assert.notEqual(await checkPng(notZlib), null, 'IDAT that is not zlib (CRC broken too)')
    assert.equal(await checkPng(good.subarray(0, good.length - 12)), 'image-png-undecodable', 'no IEND')
    assert.equal(await checkPng(new TextEncoder().encode('GIF89a not a png at all, not at all')), 'image-not-png')
  })
})
