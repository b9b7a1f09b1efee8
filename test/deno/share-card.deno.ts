/**
 * Share cards on Deno (docs/share-card.md § Runtimes): Deno runs clubcred without FFI, so the N-API resvg
 * cannot load there and `createWasmShareCardRenderer` draws with resvg's WebAssembly build in a Web
 * Worker. The card it draws is a 1200×630 PNG with the same picture the Node renderer draws: the same
 * resvg, the same Pretendard faces, so Hangul is set in them too (two Korean names differ).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createWasmShareCardRenderer } from '../../adapters/share-card/wasm-renderer.ts'
import { shareCardSvg } from '../../core/share-cards/card-svg.ts'

/** Width and height from the IHDR chunk, after the PNG signature. */
function pngSize(png: Uint8Array): [number, number] {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature')
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return [view.getUint32(16), view.getUint32(20)]
}

describe('the share card renderer on Deno', () => {
  it('draws a 1200×630 PNG off the main thread, and two Korean names as two different pictures', async () => {
    const renderer = createWasmShareCardRenderer()
    try {
      const [chess, baduk] = await Promise.all(
        ['체스 기초 과정', '바둑 기초 과정'].map((achievementName) =>
          renderer.renderPng(shareCardSvg({ achievementName, clubName: '서울 체스 클럽', badge: null })),
        ),
      )
      assert.deepEqual(pngSize(chess!), [1200, 630])
      assert.deepEqual(pngSize(baduk!), [1200, 630])
      assert.ok(chess!.length > 10_000, `a card of ${chess!.length} bytes is not blank`)
      assert.notDeepEqual(chess, baduk)
    } finally {
      await renderer.close?.()
    }
  })
})
