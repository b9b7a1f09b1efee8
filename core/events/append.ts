import { enqueueDeliveries, type EndpointsSeen } from '../webhooks/enqueue.ts'
import type { UnitOfWork } from '../ports/storage.ts'
import type { ClubEvent } from './event.ts'

export type { EndpointsSeen } from '../webhooks/enqueue.ts'

/**
 * Appends an event to the club feed and, in the same unit of work, a delivery for each enabled webhook
 * endpoint that wants it: the event and its deliveries commit together or not at all.
 *
 * A caller appending many events in one unit passes one `seen` map for that unit, so that each club's
 * endpoints are read once per unit instead of once per event; never keep it beyond the unit.
 */
export async function appendEvent(tx: UnitOfWork, event: Omit<ClubEvent, 'id'>, seen: EndpointsSeen = new Map()): Promise<number> {
  const id = await tx.events.append(event)
  await enqueueDeliveries(tx, [{ ...event, id }], null, null, seen)
  return id
}

/**
 * `appendEvent` of each event in turn, with one multi-row write per table instead of one statement per
 * row: the ids increase in the order given, as appending them one by one would make them.
 */
export async function appendEvents(tx: UnitOfWork, events: Omit<ClubEvent, 'id'>[], seen: EndpointsSeen = new Map()): Promise<number[]> {
  if (events.length === 0) return []
  const ids = await tx.events.appendMany(events)
  await enqueueDeliveries(
    tx,
    events.map((event, i) => ({ ...event, id: ids[i]! })),
    null,
    null,
    seen,
  )
  return ids
}
