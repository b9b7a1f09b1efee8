/**
 * Waits for every write of a unit of work issued together, then fails with the first failure. Writes
 * issued together let a networked storage pipeline them (one round trip for the lot instead of one
 * each); the unit ends only once none of them is still running (Promise.all would end it at the first
 * failure, and a write still under way could then run after the rollback).
 *
 * @example
 * await allWritten([appendEvents(tx, events), tx.signingJobs.completeMany(ids)])
 */
export async function allWritten(writes: (Promise<unknown> | null)[]): Promise<void> {
  const issued = writes.filter((write): write is Promise<unknown> => write !== null)
  const failed = (await Promise.allSettled(issued)).find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
}
