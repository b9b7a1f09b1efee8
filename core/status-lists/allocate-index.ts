import { toBase64Url } from '../crypto/base64url.ts'
import { permuteIndex } from './permute-index.ts'
import type { IssuerContext } from '../context.ts'
import type { UnitOfWork } from '../ports/storage.ts'

/** Entries per list: the W3C Bitstring Status List minimum (131,072), which hides any one holder among many. */
export const STATUS_LIST_SIZE = 131_072

/**
 * Reserves a revocation-list slot for a new credential of `club`, opening a new list when the current one
 * is full. Runs inside the caller's unit of work: the slot is stored with the signing job in the same
 * unit, so a crash never wastes one.
 */
export async function allocateStatusIndex(ctx: IssuerContext, tx: UnitOfWork, club: string): Promise<{ listId: number; index: number }> {
  let list = await tx.statusLists.current(club, 'revocation')
  for (;;) {
    list ??= await tx.statusLists.insert({
      club,
      purpose: 'revocation',
      size: STATUS_LIST_SIZE,
      seed: toBase64Url(ctx.random.bytes(16)),
      createdAt: ctx.clock.now(),
    })
    const position = await tx.statusLists.takeSlot(list.id)
    if (position !== null) return { listId: list.id, index: permuteIndex(position, list.seed, list.size) }
    list = null
  }
}
