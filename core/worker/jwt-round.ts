import { claimPending, signClaimed, signPendingCredentials, storeSigned, type ClaimedJob, type SignedCredential } from '../signing-queue/sign-pending.ts'
import type { IssuerContext } from '../context.ts'
import type { Held } from './held.ts'

/** A round of signing jobs: claimed, its signed credentials on their way. */
interface Round {
  claimed: ClaimedJob[]
  signed: Promise<SignedCredential[]>
}

/**
 * The worker's JWT rounds: the background creation of the signed credential, as a pipeline over rounds. While the signer works on round n (off the main thread with the
 * Node signer), `step` claims round n + 1 and stores round n - 1, so the database work and the signing
 * overlap. The claim and the store are units that touch different rows (both `concurrent`), so they run
 * side by side too: a networked storage does both at once, on two connections.
 */
export interface JwtRounds {
  /** One step of the pipeline. Returns whether it claimed or stored anything. */
  step(): Promise<boolean>
  /** One round, claim to store, outside the pipeline: for `runOnce`. Returns the jobs it handled. */
  runOne(): Promise<number>
  /** Stores the round being signed, if any: the last step of a stopping loop. */
  finish(): Promise<void>
  /**
   * After a failed step: its jobs stay leased and are taken again when the lease ends. The round being
   * signed is awaited by nobody now; should it fail as well (its release cannot be stored during an
   * outage), that is one more round error, not an unhandled rejection ending the process.
   */
  drop(): void
  /** The signing jobs claimed and not stored yet (`IssuerWorker.releaseHeld`). */
  takeHeld(): Held
}

export function createJwtRounds(ctx: IssuerContext, batchSize: number, onError: (error: unknown) => void): JwtRounds {
  let signing: Round | null = null
  /** Rounds claimed and not stored yet: what `takeHeld` gives back. */
  const held = new Set<Round>()

  async function store(round: Round): Promise<void> {
    await storeSigned(ctx, await round.signed)
    held.delete(round)
  }

  return {
    async step() {
      const previous = signing
      signing = null
      // The round claimed goes to the signer at once, not after the store beside it: that store may be
      // waiting for the previous round's signatures. Held even when the store fails (`drop` lets it go).
      const claiming = claimPending(ctx, batchSize).then((claimed) => {
        if (claimed.length === 0) return false
        signing = { claimed, signed: signClaimed(ctx, claimed) }
        held.add(signing)
        return true
      })
      const [claim, stored] = await Promise.allSettled([claiming, previous ? store(previous) : null])
      if (claim.status === 'rejected') throw claim.reason
      if (stored.status === 'rejected') throw stored.reason
      return claim.value || previous !== null
    },
    runOne: () => signPendingCredentials(ctx, batchSize),
    async finish() {
      const last = signing
      signing = null
      if (last) await store(last).catch(onError)
    },
    drop() {
      signing?.signed.catch(onError)
      signing = null
      held.clear()
    },
    takeHeld() {
      const jobs = [...held].flatMap((round) => round.claimed.map((item) => item.job.issuanceId))
      held.clear()
      return {
        count: jobs.length,
        async putBack(tx, reason, now) {
          for (const issuanceId of jobs) await tx.signingJobs.release(issuanceId, reason, now)
        },
      }
    },
  }
}
