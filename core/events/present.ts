import * as v from 'valibot'
import type { ClubEvent } from './event.ts'

/**
 * An event as read (docs/api.md §2.10): ids are strings, times ISO 8601 UTC. `type` is one of `EVENT_TYPES`
 * (`event.ts`) but typed as a string: the list only grows, and a reader skips types it does not know.
 */
export const eventViewSchema = v.object({
  id: v.string(),
  type: v.string(),
  occurredAt: v.string(),
  subject: v.object({ type: v.picklist(['issuance', 'webhook']), id: v.string() }),
  /** `issuance.reissued` of a re-route only: the issuance the credential moved from. */
  previousIssuanceId: v.optional(v.string()),
})
export type EventView = v.InferOutput<typeof eventViewSchema>

/** The feed's view of an event; webhooks deliver exactly this as `data`. */
export const presentEvent = (event: ClubEvent): EventView => ({
  id: String(event.id),
  type: event.type,
  occurredAt: new Date(event.occurredAt).toISOString(),
  subject: { ...event.subject },
  ...(event.previousIssuanceId !== undefined ? { previousIssuanceId: event.previousIssuanceId } : {}),
})
