import { ProblemError } from '../errors.ts'
import { enqueueDeliveries } from './enqueue.ts'
import { presentWebhook, requireEndpoint, type WebhookView } from './endpoint.ts'
import type { IssuerContext } from '../context.ts'
import type { ClubEvent } from '../events/event.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'

/** A delivery in the log (`webhook deliveries`). */
export interface DeliveryView {
  id: number
  /** The `webhook-id`: the feed event's id. */
  eventId: string
  state: 'pending' | 'delivered' | 'given-up'
  attempts: number
  lastStatus: number | null
  lastError: string | null
  /** When the next attempt is due (ISO 8601), `null` once delivered or given up. */
  nextAttemptAt: string | null
  deliveredAt: string | null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

const presentDelivery = (d: WebhookDelivery): DeliveryView => ({
  id: d.id,
  eventId: String(d.eventId),
  state: d.deliveredAt !== null ? 'delivered' : d.givenUpAt !== null ? 'given-up' : 'pending',
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  nextAttemptAt: d.deliveredAt === null && d.givenUpAt === null ? iso(Math.max(d.nextAttemptAt, d.leaseUntil ?? 0)) : null,
  deliveredAt: iso(d.deliveredAt),
})

export async function listWebhooks(ctx: IssuerContext, club: string): Promise<WebhookView[]> {
  return (await ctx.storage.webhookEndpoints.listByClub(club)).map(presentWebhook)
}

/** The endpoint's deliveries, newest first; strictly below the delivery id `beforeId` when given (the next page). */
export async function listDeliveries(ctx: IssuerContext, id: string, limit = 50, beforeId: number | null = null): Promise<DeliveryView[]> {
  await requireEndpoint(ctx, id)
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new ProblemError('validation-failed', { detail: 'limit must be from 1 to 1000.' })
  if (beforeId !== null && !(Number.isSafeInteger(beforeId) && beforeId > 0)) {
    throw new ProblemError('validation-failed', { detail: 'before must be a delivery id.' })
  }
  return (await ctx.storage.webhookDeliveries.listByEndpoint(id, limit, beforeId)).map(presentDelivery)
}

/**
 * Delivers again every event of the club after `afterEventId` (and up to `throughEventId` when given)
 * that the endpoint wants, as new deliveries under the same `webhook-id`s (receivers deduplicate).
 * Reads the feed in pages.
 */
export async function replayWebhook(
  ctx: IssuerContext,
  id: string,
  afterEventId: string,
  throughEventId: string | null = null,
): Promise<{ id: string; replayed: number }> {
  const endpoint = await requireEndpoint(ctx, id)
  const after = Number(afterEventId)
  if (!Number.isSafeInteger(after) || after < 0) throw new ProblemError('validation-failed', { detail: '--after must be an event id.' })
  const through = throughEventId === null ? null : Number(throughEventId)
  if (through !== null && !(Number.isSafeInteger(through) && through > after)) {
    throw new ProblemError('validation-failed', { detail: 'through must be an event id after --after.' })
  }
  const events: ClubEvent[] = []
  // The feed's pages start at the newest event, or just above `through`.
  for (let beforeId: number | null = through === null ? null : through + 1; ;) {
    const page = await ctx.storage.events.list(endpoint.club, { limit: 1000, beforeId })
    for (const event of page) if (event.id > after) events.push(event)
    if (page.length < 1000 || page[page.length - 1]!.id <= after) break
    beforeId = page[page.length - 1]!.id
  }
  events.reverse()
  const now = ctx.clock.now()
  const replayed = await ctx.storage.transaction((tx) => enqueueDeliveries(tx, events, { ...endpoint, enabled: true }, now), { club: endpoint.club })
  return { id, replayed }
}
