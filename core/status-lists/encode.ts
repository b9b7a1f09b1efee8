import { toBase64Url } from '../crypto/base64url.ts'

/**
 * The `encodedList` of a W3C Bitstring Status List v1.0: `size` bits, index 0 the most significant bit
 * of the first byte, GZIP-compressed, then multibase base64url without padding ("u" prefix).
 */
export async function encodeStatusList(size: number, setIndexes: Iterable<number>): Promise<string> {
  const bits = new Uint8Array(Math.ceil(size / 8))
  for (const index of setIndexes) {
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError(`status index ${index} outside the list`)
    bits[index >> 3]! |= 0x80 >> (index & 7)
  }
  const compressed = await new Response(new Blob([bits]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer()
  return 'u' + toBase64Url(new Uint8Array(compressed))
}
