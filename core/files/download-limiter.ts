import type { Clock } from '../ports/clock.ts'

/**
 * File downloads per club: a token bucket of `burst` tokens refilled at `perSecond`. One club that
 * downloads as fast as it can gets its burst, then `perSecond`; the other clubs keep theirs. In memory
 * and per process, like the client-authentication limiter: enough for one server.
 */
export interface DownloadLimiter {
  /** Takes a token for `club`: 0 when there was one, else the seconds until there is (nothing taken). */
  take(club: string): number
}

export interface DownloadLimiterOptions {
  clock: Clock
  burst: number
  perSecond: number
  /** Clubs tracked at most; the least recently seen is forgotten first (and starts again with a full bucket). */
  maxTracked?: number
}

export function createDownloadLimiter({ clock, burst, perSecond, maxTracked = 10_000 }: DownloadLimiterOptions): DownloadLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>()

  return {
    take(club) {
      const now = clock.now()
      const bucket = buckets.get(club) ?? { tokens: burst, at: now }
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond)
      bucket.at = now
      buckets.delete(club)
      buckets.set(club, bucket)
      if (buckets.size > maxTracked) buckets.delete(buckets.keys().next().value as string)
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return 0
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond))
    },
  }
}
