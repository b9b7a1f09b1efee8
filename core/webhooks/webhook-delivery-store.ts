import type { ClaimCaps } from './fair-share.ts'
import type { NewWebhookDelivery, WebhookDelivery } from './webhook-delivery.ts'

export interface WebhookDeliveryStore {
  /** Stores each delivery with a fresh id, increasing in the order given, 0 attempts and no lease; returns the ids in that order. */
  enqueueMany(deliveries: NewWebhookDelivery[]): Promise<number[]>
  /**
   * Leases up to `limit` deliveries that are neither delivered nor given up, due (`nextAttemptAt <= now`),
   * not leased (`leaseUntil` null or `<= now`) and whose endpoint is enabled, chosen and returned in the
   * order of `pickFairly` (core/webhooks/fair-share.ts), which the adapter calls with every endpoint that
   * has a delivery due or leased at `now` and its count of those leased: so that no endpoint holds more
   * than `caps.perEndpoint` leased deliveries and no club more than `caps.perClub`, and free slots go to
   * the club, then the endpoint, with the fewest in flight. Sets `leaseUntil = now + leaseMs` and
   * increments `attempts`. A delivery MUST NOT be returned by two claims while its lease runs, also with
   * claims from several processes on the storage; and, claims being made in units of work, the caps
   * MUST hold over every process at once.
   */
  claimDue(now: number, leaseMs: number, limit: number, caps: ClaimCaps): Promise<WebhookDelivery[]>
  /** Ends the delivery as delivered and frees its lease. */
  markDelivered(id: number, at: number, status: number): Promise<void>
  /** Frees the lease after a failed attempt, recording it; the delivery is due again at `nextAttemptAt`. */
  markFailed(id: number, failure: { status: number | null; error: string; nextAttemptAt: number }): Promise<void>
  /** Ends the delivery as given up, recording the last failure, and frees its lease. */
  markGivenUp(id: number, at: number, failure: { status: number | null; error: string }): Promise<void>
  /** The endpoint's deliveries, highest id (newest) first, at most `limit`, strictly below `beforeId` when set; `[]` when none. */
  listByEndpoint(endpointId: string, limit: number, beforeId?: number | null): Promise<WebhookDelivery[]>
}
