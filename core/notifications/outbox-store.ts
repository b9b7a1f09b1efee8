import type { NewOutboxMessage, OutboxMessage } from './outbox-message.ts'

export interface OutboxStore {
  /** Stores each message with a fresh id, increasing in the order given; returns the ids in that order. */
  enqueueMany(messages: NewOutboxMessage[]): Promise<number[]>
  /**
   * Leases up to `limit` unsent messages due at `now` with fewer than `maxAttempts` attempts: sets
   * `nextAttemptAt = now + leaseMs` and increments `attempts`. Oldest first.
   */
  claimDue(now: number, leaseMs: number, limit: number, maxAttempts: number): Promise<OutboxMessage[]>
  /** Records `sentAt`: the message is never claimed again. */
  markSent(id: number, sentAt: number): Promise<void>
  /** Records the error; the message keeps its attempts and is due again at `nextAttemptAt`. */
  markFailed(id: number, error: string, nextAttemptAt: number): Promise<void>
}
