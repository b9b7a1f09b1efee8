import { enqueueDeliveries } from '../webhooks/enqueue.ts'
import type { ClubEvent, UnitOfWork } from '../ports/storage.ts'

/**
 * Appends an event to the club feed and, in the same unit of work, a delivery for each enabled webhook
 * endpoint that wants it: the event and its deliveries commit together or not at all (issue 17).
 */
export async function appendEvent(tx: UnitOfWork, event: Omit<ClubEvent, 'id'>): Promise<number> {
  const id = await tx.events.append(event)
  await enqueueDeliveries(tx, [{ ...event, id }], null)
  return id
}
