import { presentEvent } from '../events/present.ts'
import type { ClubEvent, UnitOfWork, WebhookEndpoint } from '../ports/storage.ts'

/** The Standard Webhooks body: `data` is the event exactly as the feed shows it. */
export const deliveryPayload = (event: ClubEvent): string =>
  JSON.stringify({ type: event.type, timestamp: new Date(event.occurredAt).toISOString(), data: presentEvent(event) })

export const wants = (endpoint: WebhookEndpoint, type: string): boolean => endpoint.events === null || endpoint.events.includes(type)

/**
 * Writes a delivery of each event to each enabled endpoint of its club that wants its type, due at once
 * (`now`, else when the event occurred); `only` restricts to one endpoint (replay).
 */
export async function enqueueDeliveries(tx: UnitOfWork, events: ClubEvent[], only: WebhookEndpoint | null, now: number | null = null): Promise<number> {
  let count = 0
  const endpointsByClub = new Map<string, WebhookEndpoint[]>()
  for (const event of events) {
    let endpoints = only ? [only] : endpointsByClub.get(event.club)
    if (!endpoints) endpointsByClub.set(event.club, (endpoints = await tx.webhookEndpoints.listByClub(event.club)))
    for (const endpoint of endpoints) {
      if (!endpoint.enabled || endpoint.club !== event.club || !wants(endpoint, event.type)) continue
      await tx.webhookDeliveries.enqueue({
        endpointId: endpoint.id,
        club: event.club,
        eventId: event.id,
        payload: deliveryPayload(event),
        nextAttemptAt: now ?? event.occurredAt,
        createdAt: now ?? event.occurredAt,
      })
      count++
    }
  }
  return count
}
