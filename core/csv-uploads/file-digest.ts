import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'

/**
 * A turn of the event loop (a macrotask, not a microtask): requests waiting on the network are served
 * before the next chunk of a large file is worked on.
 */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** Characters hashed between two pauses: at most 768 KiB of UTF-8, a few milliseconds. */
const SLICE = 256 * 1024

/**
 * The address of a kept CSV file (docs/admin-console.md § Issuing by CSV): SHA-256 of the text in UTF-8,
 * lowercase hex. Hashed a slice at a time with `pause` between: 16 MiB at once holds the event loop for
 * a tenth of a second and makes a UTF-8 copy of 16 MiB. A slice never ends between the two halves of a
 * surrogate pair, which would hash as two replacement characters instead of the one character.
 */
export async function fileDigestOf(text: string, pause: () => Promise<void>): Promise<string> {
  const hash = sha256.create()
  const encoder = new TextEncoder()
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + SLICE, text.length)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++
    hash.update(encoder.encode(text.slice(start, end)))
    start = end
    await pause()
  }
  return bytesToHex(hash.digest())
}
