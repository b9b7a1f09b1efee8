import { presentEvent } from '../events/present.ts'
import type { UnitOfWork } from '../ports/storage.ts'
import type { ClubEvent } from '../events/event.ts'
import type { NewWebhookDelivery } from './webhook-delivery.ts'
import type { WebhookEndpoint } from './webhook-endpoint.ts'

/** The Standard Webhooks body: `data` is the event exactly as the feed shows it. */
export const deliveryPayload = (event: ClubEvent): string =>
  JSON.stringify({ type: event.type, timestamp: new Date(event.occurredAt).toISOString(), data: presentEvent(event) })

export const wants = (endpoint: WebhookEndpoint, type: string): boolean => endpoint.events === null || endpoint.events.includes(type)

/**
 * The endpoints of each club as read in one unit of work. They cannot change before the unit ends:
 * endpoints are created, updated and deleted only in units of their own, which run one at a time with
 * the unit that appends events (SQLite's write lock, PostgreSQL's unit lock), so that one read per club
 * and unit is exact on every node. A map kept beyond its unit would miss another node's change.
 */
export type EndpointsSeen = Map<string, WebhookEndpoint[]>

/**
 * Writes a delivery of each event to each enabled endpoint of its club that wants its type, due at once
 * (`now`, else when the event occurred); `only` restricts to one endpoint (replay).
 */
export async function enqueueDeliveries(
  tx: UnitOfWork,
  events: ClubEvent[],
  only: WebhookEndpoint | null,
  now: number | null = null,
  endpointsByClub: EndpointsSeen = new Map(),
): Promise<number> {
  // Gathered and written in one go, in the order one write per delivery would have made.
  const deliveries: NewWebhookDelivery[] = []
  for (const event of events) {
    let endpoints = only ? [only] : endpointsByClub.get(event.club)
    if (!endpoints) endpointsByClub.set(event.club, (endpoints = await tx.webhookEndpoints.listByClub(event.club)))
    for (const endpoint of endpoints) {
      if (!endpoint.enabled || endpoint.club !== event.club || !wants(endpoint, event.type)) continue
      deliveries.push({
        endpointId: endpoint.id,
        club: event.club,
        eventId: event.id,
        payload: deliveryPayload(event),
        nextAttemptAt: now ?? event.occurredAt,
        createdAt: now ?? event.occurredAt,
      })
    }
  }
  if (deliveries.length > 0) await tx.webhookDeliveries.enqueueMany(deliveries)
  return deliveries.length
}
