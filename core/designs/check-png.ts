import { crc32 } from '../files/crc32.ts'
import { readPngChunks, type PngChunk } from '../files/png-chunks.ts'

/**
 * What an uploaded PNG may cost to draw. Every certificate PDF decodes its logo in full, and a badge is
 * decoded by every viewer, so the bound is on the decoded pixels, not on the upload: a badge is shown at
 * 256 pixels and a logo at 56 points, so 1024 a side leaves room for high-density screens, and the
 * decoded image data (IDAT inflated: one filter byte per row plus the samples) may be at most that of a
 * 1024×1024 8-bit RGBA image, 4 MiB and 1024 bytes. So 16-bit samples fit at most 724×724 RGBA.
 */
export const PNG_LIMITS = {
  /** Width and height at most this many pixels (`image-dimensions`). */
  maxSide: 1024,
  /** Inflated image data at most this many bytes (`image-decoded-too-large`). */
  maxDecodedBytes: 1024 * (1 + 1024 * 4),
} as const

/** Channels per pixel of each colour type, with the bit depths it allows (PNG spec §11.2.2, Table 11.1). */
const COLOUR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
}

/** Adam7 passes: first column and row, column and row step (PNG spec §8.2). */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const

/**
 * Checks an uploaded PNG by decoding it, and returns the failure code or `null`:
 * - `image-not-png`: no PNG signature or no IHDR first;
 * - `image-png-undecodable`: a broken chunk structure or CRC, an IHDR no decoder accepts, no IDAT (or
 *   IDAT chunks apart), a palette image without PLTE, a zlib stream that does not inflate, or a row with an
 *   unknown filter type;
 * - `image-dimensions`: a side over `PNG_LIMITS.maxSide`;
 * - `image-decoded-too-large`: more decoded data than `PNG_LIMITS.maxDecodedBytes`;
 * - `image-png-size-mismatch`: the inflated data is not exactly the size that IHDR's width, height, bit
 *   depth, colour type and interlace method imply. This is what catches a decompression bomb (a header
 *   of 1×1 pixels over data that inflates to hundreds of megabytes): inflating stops at the first byte
 *   past the expected size, so no more than that is ever held or computed.
 *
 * The inflate is the web platform's `DecompressionStream('deflate')` (zlib, RFC 1950, what IDAT holds),
 * read incrementally and cancelled past the bound: no native module, the same on Node and Deno.
 */
export async function checkPng(bytes: Uint8Array): Promise<string | null> {
  let chunks: PngChunk[]
  try {
    chunks = readPngChunks(bytes)
  } catch (error) {
    return /signature|IHDR/.test((error as Error).message) ? 'image-not-png' : 'image-png-undecodable'
  }
  if (!chunks.every((chunk) => crcMatches(bytes, chunk))) return 'image-png-undecodable'
  const header = readHeader(chunks[0]!.data)
  if (!header) return 'image-png-undecodable'
  if (header.width > PNG_LIMITS.maxSide || header.height > PNG_LIMITS.maxSide) return 'image-dimensions'
  const rows = rowLengths(header)
  const expected = rows.reduce((sum, length) => sum + length, 0)
  if (expected > PNG_LIMITS.maxDecodedBytes) return 'image-decoded-too-large'

  const types = chunks.map((chunk) => chunk.type)
  const firstData = types.indexOf('IDAT')
  const lastData = types.lastIndexOf('IDAT')
  if (firstData < 0 || types.slice(firstData, lastData + 1).some((type) => type !== 'IDAT')) return 'image-png-undecodable'
  if (header.colourType === 3) {
    const palette = types.indexOf('PLTE')
    const entries = palette < 0 ? 0 : chunks[palette]!.data.length / 3
    if (palette < 0 || palette > firstData || !Number.isInteger(entries) || entries < 1 || entries > 256) return 'image-png-undecodable'
  }
  return inflateProblem(chunks.slice(firstData, lastData + 1), rows, expected)
}

interface Header {
  width: number
  height: number
  bitDepth: number
  colourType: number
  interlaced: boolean
}

/** IHDR (PNG spec §11.2.2), or `null` when no decoder would accept it. */
function readHeader(data: Uint8Array): Header | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const [width, height] = [view.getUint32(0), view.getUint32(4)]
  const [bitDepth, colourType, compression, filter, interlace] = data.subarray(8, 13) as unknown as number[]
  const allowed = COLOUR_TYPES[colourType!]
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return null
  if (!allowed || !allowed.depths.includes(bitDepth!) || compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return null
  return { width, height, bitDepth: bitDepth!, colourType: colourType!, interlaced: interlace === 1 }
}

/** The length of every row of the inflated data, its filter byte included, in order (all passes when interlaced). */
function rowLengths({ width, height, bitDepth, colourType, interlaced }: Header): number[] {
  const bitsPerPixel = COLOUR_TYPES[colourType]!.channels * bitDepth
  const rowOf = (pixels: number) => 1 + Math.ceil((pixels * bitsPerPixel) / 8)
  if (!interlaced) return Array.from({ length: height }, () => rowOf(width))
  const rows: number[] = []
  for (const [x0, y0, dx, dy] of ADAM7) {
    const passWidth = width > x0 ? Math.ceil((width - x0) / dx) : 0
    const passHeight = height > y0 ? Math.ceil((height - y0) / dy) : 0
    // An empty pass has no rows at all, not even filter bytes (PNG spec §8.2).
    if (passWidth > 0) for (let y = 0; y < passHeight; y++) rows.push(rowOf(passWidth))
  }
  return rows
}

/** Inflates the IDAT data incrementally; stops at the first byte past `expected`. */
async function inflateProblem(data: PngChunk[], rows: number[], expected: number): Promise<string | null> {
  const inflate = new DecompressionStream('deflate')
  const writer = inflate.writable.getWriter()
  const feeding = (async () => {
    for (const chunk of data) await writer.write(chunk.data as Uint8Array<ArrayBuffer>)
    await writer.close()
  })()
  // Errors surface on the reading side; a cancelled read leaves the feeder rejected, which is expected.
  feeding.catch(() => {})
  const reader = inflate.readable.getReader()
  let total = 0
  let row = 0
  let nextFilterAt = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      // Every row starts with its filter type, 0 to 4 (PNG spec §7.3): check them as they stream by.
      while (row < rows.length && nextFilterAt < total + value.length) {
        if (value[nextFilterAt - total]! > 4) {
          await reader.cancel()
          return 'image-png-undecodable'
        }
        nextFilterAt += rows[row++]!
      }
      total += value.length
      if (total > expected) {
        await reader.cancel()
        return 'image-png-size-mismatch'
      }
    }
  } catch {
    return 'image-png-undecodable'
  }
  return total === expected ? null : 'image-png-size-mismatch'
}

/** The stored CRC of a chunk (after its data) against the CRC of its type and data. */
function crcMatches(png: Uint8Array, chunk: PngChunk): boolean {
  const end = chunk.data.byteOffset - png.byteOffset + chunk.data.length
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const type = Uint8Array.from(chunk.type, (char) => char.charCodeAt(0))
  return view.getUint32(end) === crc32(type, chunk.data)
}
