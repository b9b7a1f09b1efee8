import { enqueueDeliveries, type EndpointsSeen } from '../webhooks/enqueue.ts'
import type { ClubEvent, UnitOfWork } from '../ports/storage.ts'

export type { EndpointsSeen } from '../webhooks/enqueue.ts'

/**
 * Appends an event to the club feed and, in the same unit of work, a delivery for each enabled webhook
 * endpoint that wants it: the event and its deliveries commit together or not at all (issue 17).
 *
 * A caller appending many events in one unit passes one `seen` map for that unit, so that each club's
 * endpoints are read once per unit instead of once per event (issue 19); never keep it beyond the unit.
 */
export async function appendEvent(tx: UnitOfWork, event: Omit<ClubEvent, 'id'>, seen: EndpointsSeen = new Map()): Promise<number> {
  const id = await tx.events.append(event)
  await enqueueDeliveries(tx, [{ ...event, id }], null, null, seen)
  return id
}
