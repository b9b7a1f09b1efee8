import { toBase64Url } from '../crypto/base64url.ts'
import { permuteIndex } from './permute-index.ts'
import type { IssuerContext } from '../context.ts'
import type { UnitOfWork } from '../ports/storage.ts'

/** Entries per list: the W3C Bitstring Status List minimum (131,072), which hides any one holder among many. */
export const STATUS_LIST_SIZE = 131_072

export interface StatusSlot {
  listId: number
  index: number
}

/**
 * Reserves `count` revocation-list slots for new credentials of `club`, opening a new list whenever the
 * current one fills. Runs in the caller's unit of work: the slots are stored with the signing jobs in
 * the same unit, so a crash never wastes one.
 */
export async function allocateStatusIndexes(ctx: IssuerContext, tx: UnitOfWork, club: string, count: number): Promise<StatusSlot[]> {
  const slots: StatusSlot[] = []
  let list = await tx.statusLists.current(club, 'revocation')
  while (slots.length < count) {
    list ??= await tx.statusLists.insert({
      club,
      purpose: 'revocation',
      size: STATUS_LIST_SIZE,
      seed: toBase64Url(ctx.random.bytes(16)),
      createdAt: ctx.clock.now(),
    })
    const taken = await tx.statusLists.takeSlots(list.id, count - slots.length)
    if (!taken) {
      list = null
      continue
    }
    for (let position = taken.first; position < taken.first + taken.count; position++) {
      slots.push({ listId: list.id, index: permuteIndex(position, list.seed, list.size) })
    }
  }
  return slots
}
