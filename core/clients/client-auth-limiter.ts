import type { Clock } from '../ports/clock.ts'
import type { StoragePort } from '../ports/storage.ts'
import { createFailureLimiter } from './failure-limiter.ts'

/** The limit of failed client authentications at the token endpoint (docs/decisions/0005-client-authentication-rate-limit.md). */
export interface ClientAuthLimiter {
  /** Seconds until `clientId` may try again, or 0 when it may try now. */
  retryAfter(clientId: string): Promise<number>
  recordFailure(clientId: string): Promise<void>
  recordSuccess(clientId: string): Promise<void>
}

export interface ClientAuthLimiterOptions {
  storage: StoragePort
  clock: Clock
  limit: number
  windowSeconds: number
}

/**
 * Failures of clients that exist are counted in storage, so that the limit holds across every node on
 * it; failures of ids no client has are counted in this process's bounded limiter instead, because a
 * row per sprayed made-up id would let anyone grow the database. Both lock after `limit` failures on
 * one node, so the limiter's answers do not tell which ids exist. Across nodes they differ: a made-up
 * id needs `limit` failures on each node. Every failure makes the same storage call, with or without
 * a client behind the id, so timing does not tell either.
 */
export function createClientAuthLimiter({ storage, clock, limit, windowSeconds }: ClientAuthLimiterOptions): ClientAuthLimiter {
  const windowMs = windowSeconds * 1000
  const unknownIds = createFailureLimiter({ clock, limit, windowSeconds })

  return {
    async retryAfter(clientId) {
      const now = clock.now()
      const window = await storage.clientAuthFailures.find(clientId, now)
      const stored = window && window.failures >= limit ? Math.max(1, Math.ceil((window.endsAt - now) / 1000)) : 0
      return Math.max(stored, unknownIds.retryAfter(clientId))
    },
    async recordFailure(clientId) {
      const window = await storage.transaction((tx) => tx.clientAuthFailures.recordFailure(clientId, clock.now(), windowMs), { concurrent: true })
      if (window === null) unknownIds.recordFailure(clientId)
    },
    async recordSuccess(clientId) {
      unknownIds.recordSuccess(clientId)
      // A read first: most successes follow no failure, and a write per token request would cost a commit.
      if (await storage.clientAuthFailures.find(clientId, clock.now())) {
        await storage.transaction((tx) => tx.clientAuthFailures.clear(clientId), { concurrent: true })
      }
    },
  }
}
