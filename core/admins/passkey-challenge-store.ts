import type { PasskeyChallenge } from './passkey.ts'

/** Challenges of passkey ceremonies, shared by every node on the storage; each works once. */
export interface PasskeyChallengeStore {
  /**
   * Stores a challenge. MUST throw `StorageConflict` when it exists. MAY delete challenges that expired at
   * or before `now`. With `keep`, MUST then leave at most `keep` challenges of the challenge's purpose
   * unexpired at `now`, deleting those that expire first; concurrent inserts MAY each leave `keep`, and
   * so briefly a few more in all, never without bound.
   */
  insert(challenge: PasskeyChallenge, now: number, keep?: number): Promise<void>
  /**
   * Deletes the challenge and returns it as stored: of concurrent calls for one challenge, from any
   * number of processes, at most one gets it. `null` when absent (used, never given, or purged); the
   * expiry is the caller's to check.
   */
  consume(challenge: string): Promise<PasskeyChallenge | null>
}
