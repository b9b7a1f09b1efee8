import type { ClubEvent } from '../ports/storage.ts'

/** An event as read (spec §2.10): ids are strings, times ISO 8601 UTC. */
export interface EventView {
  id: string
  type: string
  occurredAt: string
  subject: { type: 'issuance' | 'webhook'; id: string }
}

/** The feed's view of an event; webhooks deliver exactly this as `data`. */
export const presentEvent = (event: ClubEvent): EventView => ({
  id: String(event.id),
  type: event.type,
  occurredAt: new Date(event.occurredAt).toISOString(),
  subject: { ...event.subject },
})
