import { StorageConflict } from '../errors.ts'
import type { RandomSource } from '../ports/random.ts'

/**
 * Issuance ids are random below 2^53: the public verdict is keyed by the id, and its
 * payload leads to the share page, which shows the recipient's name, so sequential ids would let anyone
 * who counts from 1 read every recipient. 2^53 keeps the id a JSON number that every client parses
 * exactly (docs/api.md §2.6 and §2.9 give it as a number).
 */
export const MAX_ISSUANCE_ID = Number.MAX_SAFE_INTEGER

/** Draws before giving up: eight collisions in a row among 2^53 ids mean a broken RandomSource, not bad luck. */
const ATTEMPTS = 8

/** A uniformly random integer in 1..2^53-1, from 7 random bytes (53 of their 56 bits). */
export function randomIssuanceId(random: RandomSource): number {
  return issuanceIdDraws(random, 1)()
}

/**
 * Random issuance ids drawn `expected` at a time: one call to the random source per batch instead of
 * one per recipient (a WebCrypto call each cost more than the id's insert). The bytes are
 * the same uniform secure bytes; a draw that is used up is refilled.
 */
export function issuanceIdDraws(random: RandomSource, expected: number): () => number {
  const size = 7 * Math.max(1, Math.min(expected, 1024))
  let bytes: Uint8Array = new Uint8Array(0)
  let at = 0
  return () => {
    for (;;) {
      if (at + 7 > bytes.length) {
        bytes = random.bytes(size)
        at = 0
      }
      let id = bytes[at]! & 0x1f
      for (let i = 1; i < 7; i++) id = id * 256 + bytes[at + i]!
      at += 7
      if (id > 0) return id
    }
  }
}

/**
 * Runs `insert` with fresh random ids (from `nextId`, or the random source) until one is not taken.
 * Uniqueness is the store's constraint (`StorageConflict`), never an assumption about the odds.
 */
export async function withFreshIssuanceId<T>(source: RandomSource | (() => number), insert: (id: number) => Promise<T>): Promise<T> {
  const nextId = typeof source === 'function' ? source : () => randomIssuanceId(source)
  for (let attempt = 1; ; attempt++) {
    try {
      return await insert(nextId())
    } catch (error) {
      if (!(error instanceof StorageConflict) || attempt >= ATTEMPTS) throw error
    }
  }
}
