import type { Clock } from '../ports/clock.ts'

/**
 * Counts failed attempts per key in fixed windows, in memory and per process. The token endpoint uses
 * it for client ids that no client has (`client-auth-limiter.ts`); real clients are counted in storage.
 */
export interface FailureLimiter {
  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfter(key: string): number
  recordFailure(key: string): void
  recordSuccess(key: string): void
}

export interface FailureLimiterOptions {
  clock: Clock
  limit: number
  windowSeconds: number
  /**
   * Keys still counting (below `limit`) tracked at most; the oldest are forgotten first, so that
   * sprayed ids cannot exhaust memory. Forgetting a count costs an attacker nothing it could not
   * get by waiting; a lock is never forgotten this way (see `maxLocked`).
   */
  maxTracked?: number
  /**
   * Locked keys (at `limit`) kept at most. Locks are never evicted: when this many keys are locked
   * at once, the limiter fails closed and every other key waits until the earliest lock ends.
   */
  maxLocked?: number
}

/**
 * Keys are tracked by their first characters only, so that one entry costs a bounded amount of
 * memory whatever the sender puts in the Basic header. Real client ids are far shorter.
 */
const KEY_CHARS = 128

interface Window {
  start: number
  failures: number
}

export function createFailureLimiter({ clock, limit, windowSeconds, maxTracked = 10_000, maxLocked = 100_000 }: FailureLimiterOptions): FailureLimiter {
  const windowMs = windowSeconds * 1000
  // Two tables: eviction of counting keys must never release a locked one.
  const counting = new Map<string, Window>()
  const locked = new Map<string, Window>()

  const ended = (window: Window) => clock.now() - window.start >= windowMs
  const secondsLeft = (window: Window) => Math.max(1, Math.ceil((window.start + windowMs - clock.now()) / 1000))

  /**
   * Locks sit in the order they were taken, which is close to the order they end (a lock ends at most
   * one window after it was taken), so the scan stops at the first live one: O(1) amortised. An ended
   * lock behind a live one is dropped when its key comes back or the ones before it end.
   */
  function dropEndedLocks(): void {
    for (const [key, window] of locked) {
      if (!ended(window)) return
      locked.delete(key)
    }
  }

  function find(key: string): { table: Map<string, Window>; window: Window } | undefined {
    for (const table of [locked, counting]) {
      const window = table.get(key)
      if (!window) continue
      if (!ended(window)) return { table, window }
      table.delete(key)
    }
    return undefined
  }

  return {
    retryAfter(rawKey) {
      const key = rawKey.slice(0, KEY_CHARS)
      const found = find(key)
      if (found && found.window.failures >= limit) return secondsLeft(found.window)
      dropEndedLocks()
      // Saturated: failing closed until the earliest lock ends is the price of never releasing one.
      if (locked.size >= maxLocked) return secondsLeft(locked.values().next().value as Window)
      return 0
    },
    recordFailure(rawKey) {
      const key = rawKey.slice(0, KEY_CHARS)
      const found = find(key)
      const window = found?.window ?? { start: clock.now(), failures: 0 }
      window.failures++
      if (window.failures >= limit) {
        counting.delete(key)
        dropEndedLocks()
        // At `maxLocked`, `retryAfter` refuses every key, so no further lock is needed to hold one off.
        if (!locked.has(key) && locked.size < maxLocked) locked.set(key, window)
        return
      }
      if (!found) {
        counting.set(key, window)
        if (counting.size > maxTracked) counting.delete(counting.keys().next().value as string)
      }
    },
    recordSuccess(rawKey) {
      const key = rawKey.slice(0, KEY_CHARS)
      counting.delete(key)
      locked.delete(key)
    },
  }
}
