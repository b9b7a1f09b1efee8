import { writePng } from './png-chunks.ts'

/** An RGBA raster: `width * height * 4` bytes, rows top to bottom, not premultiplied. */
export interface RgbaImage {
  width: number
  height: number
  pixels: Uint8Array
}

/**
 * Encodes an RGBA raster as a PNG (colour type 6, 8 bits, no interlace, filter 0 on every row). The
 * zlib stream comes from the web platform's `CompressionStream('deflate')` (RFC 1950, what IDAT holds),
 * so this needs no native module and runs on Node, Deno and browsers alike.
 */
export async function encodePng(image: RgbaImage): Promise<Uint8Array> {
  const { width, height, pixels } = image
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || pixels.length !== width * height * 4) {
    throw new TypeError('encodePng: pixels must hold width * height RGBA samples')
  }
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, 6, 0, 0, 0], 8)
  const stride = width * 4
  const raw = new Uint8Array((stride + 1) * height)
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1)
  return writePng([
    { type: 'IHDR', data: header },
    { type: 'IDAT', data: await deflate(raw) },
    { type: 'IEND', data: new Uint8Array(0) },
  ])
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}
