import { parseListQuery, toPage, type ListQuery, type Page } from '../lists/cursor.ts'
import type { IssuerContext } from '../context.ts'

/** An event as read (spec §2.10): ids are strings, times ISO 8601 UTC. */
export interface EventView {
  id: string
  type: string
  occurredAt: string
  subject: { type: 'issuance'; id: string }
}

/** The club's event feed, newest first (spec §4.9, §6). */
export async function listEvents(ctx: IssuerContext, club: string, query: ListQuery): Promise<Page<EventView>> {
  const { limit, beforeId } = parseListQuery('events', query)
  const rows = await ctx.storage.events.list(club, { limit: limit + 1, beforeId })
  return toPage('events', rows, limit, (event) => ({
    id: String(event.id),
    type: event.type,
    occurredAt: new Date(event.occurredAt).toISOString(),
    subject: { ...event.subject },
  }))
}
