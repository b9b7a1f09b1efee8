import { crc32 } from './crc32.ts'

/** The 8-byte PNG signature (PNG spec §5.2). */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)

/** One chunk of a PNG: its four-letter type and its data (a view into the source bytes). */
export interface PngChunk {
  type: string
  data: Uint8Array
}

/**
 * Splits a PNG into its chunks. Checks the structure only: the signature, every chunk within the bytes,
 * `IHDR` first (13 bytes) and `IEND` last. CRCs are carried over as they are, not checked: baking must not
 * refuse an image that every viewer shows. Throws a `TypeError` naming the fault when it is not a PNG.
 */
export function readPngChunks(png: Uint8Array): PngChunk[] {
  if (!(png instanceof Uint8Array)) throw new TypeError('not a PNG: expected a Uint8Array')
  if (png.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((byte, i) => png[i] !== byte)) {
    throw new TypeError('not a PNG: the signature is missing')
  }
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const chunks: PngChunk[] = []
  let offset = PNG_SIGNATURE.length
  while (offset < png.length) {
    if (offset + 12 > png.length) throw new TypeError(`not a PNG: a truncated chunk at byte ${offset}`)
    const length = view.getUint32(offset)
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8))
    if (!/^[A-Za-z]{4}$/.test(type)) throw new TypeError(`not a PNG: a chunk type that is not four letters at byte ${offset}`)
    const end = offset + 12 + length
    if (end > png.length) throw new TypeError(`not a PNG: the ${type} chunk runs past the end`)
    chunks.push({ type, data: png.subarray(offset + 8, offset + 8 + length) })
    offset = end
    if (type === 'IEND') break
  }
  if (chunks[0]?.type !== 'IHDR' || chunks[0].data.length !== 13) throw new TypeError('not a PNG: IHDR is not the first chunk')
  if (chunks.at(-1)?.type !== 'IEND') throw new TypeError('not a PNG: there is no IEND chunk')
  return chunks
}

/** Joins chunks into a PNG, computing each length and CRC. */
export function writePng(chunks: PngChunk[]): Uint8Array {
  const size = chunks.reduce((sum, chunk) => sum + 12 + chunk.data.length, PNG_SIGNATURE.length)
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  out.set(PNG_SIGNATURE, 0)
  let offset = PNG_SIGNATURE.length
  for (const chunk of chunks) {
    const type = asciiBytes(chunk.type)
    view.setUint32(offset, chunk.data.length)
    out.set(type, offset + 4)
    out.set(chunk.data, offset + 8)
    view.setUint32(offset + 8 + chunk.data.length, crc32(type, chunk.data))
    offset += 12 + chunk.data.length
  }
  return out
}

/** Latin-1 bytes of an ASCII string (chunk types and iTXt keywords). */
export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0))
}
