import { claimUnprovenCredentials, proveClaimed, provePendingCredentials } from '../signing-queue/prove-pending.ts'
import type { IssuerContext } from '../context.ts'
import type { Held } from './held.ts'

/**
 * The worker's proof rounds (docs/data-integrity.md § Signing): the Data Integrity proofs of stored
 * credentials, beside the loop, which never waits for them: a JWT is what integrators wait for, a proof
 * can trail it. The proofs run as a pipeline while credentials wait for theirs: a round is claimed and
 * queued to the signer while the one before is signed, and stored while the next is signed, so that the
 * signer's threads never wait for the database; a round that comes back full is followed by a larger one
 * (a backlog), up to `MAX_PROOF_ROUND`. While JWT rounds find work, the pipeline runs one small round at a
 * time: a round's claim, hand-over and store are the calling thread's work, which the JWT rounds need.
 */
export interface ProofRounds {
  /** Starts the pipeline beside the loop, unless it runs, the worker stops or no signer proves. */
  start(): void
  /** One round, awaited: for `drain` and `runOnce`. Returns the credentials it claimed. */
  runOne(): Promise<number>
  /** Settles when the pipeline, if it runs, has stored the proofs of its rounds in flight. */
  settled(): Promise<void>
  /** The credentials of the rounds in flight (`IssuerWorker.releaseHeld`); a proof stored meanwhile stays. */
  takeHeld(): Held
}

/**
 * Credentials in a proof round when no backlog waits (docs/data-integrity.md § Signing): with the fast
 * path a proof is about 0.15 ms on one core (docs/decisions/0044-data-integrity-proofs-without-a-json-ld-processor.md),
 * so 128 are about 20 ms of proofs, against a claim and a store of a few ms.
 */
export const PROOF_BATCH_SIZE = 128

/** The largest round of a backlog: about 150 ms of proofs, and a claim and a store of a few tens of ms on SQLite's one connection. */
const MAX_PROOF_ROUND = 1024

/** Rounds in flight once no JWT waits: one being signed while the next is claimed and queued, the one before stored meanwhile. */
const ROUNDS_IN_FLIGHT = 2

export function createProofRounds(
  ctx: IssuerContext,
  proofBatchSize: number,
  {
    stopping,
    jwtsWaiting,
    onError,
  }: {
    stopping: () => boolean
    /** Whether the last JWT step found work: then one round of `proofBatchSize` at a time. */
    jwtsWaiting: () => boolean
    onError: (error: unknown) => void
  },
): ProofRounds {
  let proving: Promise<void> | null = null
  const held = new Set<string>()

  async function pipeline(): Promise<void> {
    const rounds = new Set<Promise<void>>()
    let limit = proofBatchSize
    try {
      while (!stopping()) {
        if (jwtsWaiting()) limit = proofBatchSize
        const claimed = await claimUnprovenCredentials(ctx, limit)
        if (claimed.length === 0) break
        const round: Promise<void> = proveClaimed(ctx, claimed, held)
          .catch(onError)
          .finally(() => rounds.delete(round))
        rounds.add(round)
        limit = claimed.length === limit ? Math.min(limit * 2, Math.max(MAX_PROOF_ROUND, proofBatchSize)) : proofBatchSize
        while (rounds.size >= (jwtsWaiting() ? 1 : ROUNDS_IN_FLIGHT)) await Promise.race(rounds)
      }
    } finally {
      // A stop waits for these: their proofs are made work, cheap to keep.
      await Promise.all(rounds)
    }
  }

  return {
    start() {
      if (proving || stopping() || !ctx.dataIntegritySigner) return
      proving = pipeline()
        .catch(onError)
        .finally(() => (proving = null))
    },
    runOne: () => provePendingCredentials(ctx, proofBatchSize),
    async settled() {
      await proving
    },
    takeHeld() {
      const proofs = [...held]
      held.clear()
      return {
        count: proofs.length,
        async putBack(tx, reason, now) {
          // The release ignores credentials whose proof is made.
          if (proofs.length > 0) await tx.credentials.releaseUnproven(proofs, reason, now)
        },
      }
    },
  }
}
