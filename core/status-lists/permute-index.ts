import { fromBase64Url } from '../crypto/base64url.ts'

/**
 * Maps the n-th slot handed out of a status list to its index, by a keyed permutation of [0, size):
 * indexes look random (a sequential index would leak issue order, docs/decisions/0014-signed-credential.md § Status)
 * yet never collide, need no retries and leave no gaps. A 4-round Feistel network on the next
 * even bit width, cycle-walked into range; keyed by the list's secret seed.
 */
export function permuteIndex(position: number, seed: string, size: number): number {
  if (!Number.isInteger(position) || position < 0 || position >= size) throw new RangeError('position out of range')
  const halfBits = Math.max(1, Math.ceil(Math.ceil(Math.log2(size)) / 2))
  const mask = (1 << halfBits) - 1
  const keys = roundKeys(seed)
  let value = position
  do {
    let left = value >>> halfBits
    let right = value & mask
    for (const key of keys) {
      const next = left ^ (round(right, key) & mask)
      left = right
      right = next
    }
    value = (left << halfBits) | right
  } while (value >= size)
  return value
}

function roundKeys(seed: string): number[] {
  const bytes = fromBase64Url(seed)
  if (bytes.length < 16) throw new TypeError('a status list seed needs 16 bytes')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return [0, 4, 8, 12].map((offset) => view.getUint32(offset))
}

/** A 32-bit integer mix (murmur3's finalizer) of the half-block and the round key. */
function round(value: number, key: number): number {
  let hash = Math.imul(value ^ key, 0x9e3779b1)
  hash ^= hash >>> 15
  hash = Math.imul(hash, 0x85ebca77)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae3d)
  hash ^= hash >>> 16
  return hash >>> 0
}
