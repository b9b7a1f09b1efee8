/**
 * Credential ids are RFC 9562 version 7 UUIDs: 48 bits of Unix milliseconds, then 74 random
 * bits. A credential's id is unique-indexed wherever it is stored, and random (version 4) ids put each of
 * a round's 1,000 entries on a page of its own all over that index: at 1,000,000 credentials that index
 * alone was about half of what storing a credential wrote to disk. Ids that start with the time append.
 *
 * What it gives up: 74 random bits instead of 122, still far beyond guessing (the id opens the share
 * page and the public JWT), and the millisecond of signing, which the credential states to the second
 * anyway (`validFrom`).
 */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))
const hex = (byte: number) => HEX[byte & 0xff]!

/** The version 7 UUID of `ms` with its random bits taken from `b` (16 bytes; the first six, and the bits the version and variant take, are not used). */
export function timeOrderedUuid(ms: number, b: Uint8Array): string {
  // 48 bits of milliseconds, big-endian: the high 16 by division, since bitwise operators cut at 32.
  const high = Math.floor(ms / 2 ** 32)
  const low = ms >>> 0
  return (
    hex(high >>> 8) +
    hex(high) +
    hex(low >>> 24) +
    hex(low >>> 16) +
    '-' +
    hex(low >>> 8) +
    hex(low) +
    '-' +
    hex(0x70 | (b[6]! & 0x0f)) +
    hex(b[7]!) +
    '-' +
    hex(0x80 | (b[8]! & 0x3f)) +
    hex(b[9]!) +
    '-' +
    hex(b[10]!) +
    hex(b[11]!) +
    hex(b[12]!) +
    hex(b[13]!) +
    hex(b[14]!) +
    hex(b[15]!)
  )
}
