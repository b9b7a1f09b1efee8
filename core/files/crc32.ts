/** CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320 reflected; PNG spec §5.5, Annex D). */

const TABLE = /* @__PURE__ */ (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/**
 * The CRC-32 of the concatenated `parts` (a PNG chunk's CRC covers its type and data, not its length).
 *
 * @example
 * crc32(new TextEncoder().encode('123456789')) // 0xcbf43926
 */
export function crc32(...parts: Uint8Array[]): number {
  let c = 0xffffffff
  for (const bytes of parts) {
    for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8)
  }
  return (c ^ 0xffffffff) >>> 0
}
