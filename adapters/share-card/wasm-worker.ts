/**
 * The Web Worker of `createWasmShareCardRenderer`: resvg's WebAssembly build with Pretendard, drawing one
 * card a message. It reads the wasm module and the fonts once, when it starts; a card's drawing then
 * holds this worker's thread, never the server's event loop.
 */
import { readFile } from 'node:fs/promises'
import { initWasm, Resvg } from '@resvg/resvg-wasm'
import { SHARE_CARD_FONT_FAMILY } from '../../core/ports/share-card-renderer.ts'
import { PRETENDARD_FACES } from './fonts.ts'

interface WorkerScope {
  onmessage: ((event: { data: { id: number; svg: string } }) => void) | null
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void
}

const scope = globalThis as unknown as WorkerScope

const ready = (async () => {
  const wasm = await readFile(new URL(import.meta.resolve('@resvg/resvg-wasm/index_bg.wasm')))
  await initWasm(wasm)
  return Promise.all(PRETENDARD_FACES.map(async (face) => new Uint8Array(await readFile(face))))
})()

scope.onmessage = ({ data: { id, svg } }) => {
  void draw(svg).then(
    (png) => scope.postMessage({ id, png }, [png.buffer as ArrayBuffer]),
    (error: unknown) => scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  )
}

async function draw(svg: string): Promise<Uint8Array> {
  const fontBuffers = await ready
  const resvg = new Resvg(svg, {
    font: { fontBuffers, defaultFontFamily: SHARE_CARD_FONT_FAMILY, sansSerifFamily: SHARE_CARD_FONT_FAMILY },
    fitTo: { mode: 'original' },
  })
  try {
    const image = resvg.render()
    const png = image.asPng()
    image.free()
    return png
  } finally {
    resvg.free()
  }
}
