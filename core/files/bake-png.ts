import { asciiBytes, readPngChunks, writePng, type PngChunk } from './png-chunks.ts'

/** The iTXt keyword of a baked OB 3.0 credential (Open Badges 3.0, "Baking", PNG). */
export const PNG_CREDENTIAL_KEYWORD = 'openbadgecredential'

/**
 * Bakes a signed credential into a PNG badge (Open Badges 3.0, "Baking", PNG): an `iTXt` chunk
 * with the keyword `openbadgecredential`, compression flag 0 (never compressed), an empty language tag
 * and translated keyword, and the compact JWT as its text, placed right after `IHDR`. A credential baked
 * before is replaced, not doubled. Byte work only (`Uint8Array`), so it runs on any runtime.
 *
 * @throws TypeError when `png` is not a PNG (see `readPngChunks`) or `jwt` is empty.
 * @example
 * const baked = bakePng(badgePng, credential.jwt)
 */
export function bakePng(png: Uint8Array, jwt: string): Uint8Array {
  if (typeof jwt !== 'string' || jwt.length === 0) throw new TypeError('bakePng: the credential is empty')
  const chunks = readPngChunks(png).filter((chunk) => !isBakedCredential(chunk))
  return writePng([chunks[0]!, credentialChunk(jwt), ...chunks.slice(1)])
}

/** `keyword \0 compression-flag compression-method language \0 translated-keyword \0 text` (PNG §11.3.4.5). */
function credentialChunk(jwt: string): PngChunk {
  const keyword = asciiBytes(PNG_CREDENTIAL_KEYWORD)
  const text = new TextEncoder().encode(jwt)
  const data = new Uint8Array(keyword.length + 5 + text.length)
  data.set(keyword, 0)
  // After the keyword: its NUL, compression flag 0, method 0, an empty language tag and an empty
  // translated keyword (each just its NUL); the new array is zero-filled, so these are already in place.
  data.set(text, keyword.length + 5)
  return { type: 'iTXt', data }
}

function isBakedCredential(chunk: PngChunk): boolean {
  if (chunk.type !== 'iTXt') return false
  const keyword = asciiBytes(PNG_CREDENTIAL_KEYWORD)
  return chunk.data[keyword.length] === 0 && keyword.every((byte, i) => chunk.data[i] === byte)
}
