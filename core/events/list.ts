import { parseListQuery, toPage, type ListQuery, type Page } from '../lists/cursor.ts'
import { presentEvent, type EventView } from './present.ts'
import type { IssuerContext } from '../context.ts'

export type { EventView } from './present.ts'

/** The club's event feed, newest first (docs/api.md §4.9, §6). */
export async function listEvents(ctx: IssuerContext, club: string, query: ListQuery): Promise<Page<EventView>> {
  const { limit, beforeId } = parseListQuery('events', query)
  const rows = await ctx.storage.events.list(club, { limit: limit + 1, beforeId })
  return toPage('events', rows, limit, presentEvent)
}
