import type { IssuerContext } from '../context.ts'
import type { EventType } from '../events/event.ts'
import { presentEvent, type EventView } from '../events/present.ts'
import { requireIssuance } from './read.ts'

/** The events that tell how an issuance's mails went (docs/api.md §6.1). */
export const MAIL_EVENT_TYPES: readonly EventType[] = ['issuance.notified', 'issuance.notification_failed']

/**
 * An issuance's mails as its events tell them, newest first, at most `limit`: each accepted by the SMTP
 * server (`issuance.notified`) or given up (`issuance.notification_failed`). `issuance-not-found` for
 * another club's issuance, as for an unknown one.
 */
export async function readDelivery(ctx: IssuerContext, club: string, id: number, limit = 20): Promise<EventView[]> {
  await requireIssuance(ctx.storage, club, id)
  const events = await ctx.storage.events.listBySubject(club, { type: 'issuance', id: String(id) }, MAIL_EVENT_TYPES, limit)
  return events.map(presentEvent)
}
