import type { StoragePort, UnitOfWork } from '../ports/storage.ts'

/**
 * What a job of the worker holds claimed and not stored yet, taken from it for a shutdown that cannot
 * wait (`IssuerWorker.releaseHeld`, docs/shutdown.md): `putBack` makes it claimable by another worker at
 * once rather than when its lease ends. Taking it empties the job's hold: what it stores later is stored
 * all the same, and the storage keeps that.
 */
export interface Held {
  /** How many signing jobs or credentials it puts back. */
  count: number
  putBack(tx: UnitOfWork, reason: string, now: number): Promise<void>
}

/** Puts back what the jobs held, in one unit of work. Returns how many jobs and proofs it put back. */
export async function putBackHeld(storage: Pick<StoragePort, 'transaction'>, held: Held[], now: number): Promise<number> {
  const holding = held.filter((one) => one.count > 0)
  if (holding.length === 0) return 0
  await storage.transaction(
    async (tx) => {
      for (const one of holding) await one.putBack(tx, 'released at shutdown', now)
    },
    { concurrent: true },
  )
  return holding.reduce((sum, one) => sum + one.count, 0)
}
