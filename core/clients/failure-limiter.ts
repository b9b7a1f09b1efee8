import type { Clock } from '../ports/clock.ts'

/**
 * Counts failed attempts per key in fixed windows. In memory and per process: enough for one server;
 * a multi-instance deployment would put this behind a shared store.
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
  /** Keys tracked at most; the oldest are forgotten first, so that sprayed ids cannot exhaust memory. */
  maxTracked?: number
}

export function createFailureLimiter({ clock, limit, windowSeconds, maxTracked = 10_000 }: FailureLimiterOptions): FailureLimiter {
  const windowMs = windowSeconds * 1000
  const windows = new Map<string, { start: number; failures: number }>()

  function current(key: string) {
    const window = windows.get(key)
    if (window && clock.now() - window.start >= windowMs) {
      windows.delete(key)
      return undefined
    }
    return window
  }

  return {
    retryAfter(key) {
      const window = current(key)
      if (!window || window.failures < limit) return 0
      return Math.max(1, Math.ceil((window.start + windowMs - clock.now()) / 1000))
    },
    recordFailure(key) {
      const window = current(key)
      if (window) {
        window.failures++
        return
      }
      windows.set(key, { start: clock.now(), failures: 1 })
      if (windows.size > maxTracked) windows.delete(windows.keys().next().value as string)
    },
    recordSuccess(key) {
      windows.delete(key)
    },
  }
}
