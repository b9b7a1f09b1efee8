import { provePendingCredentials } from '../signing-queue/prove-pending.ts'
import type { IssuerContext } from '../context.ts'
import type { Held } from './held.ts'

/**
 * The worker's proof rounds (docs/data-integrity.md § Signing): the Data Integrity proofs of stored
 * credentials, beside the loop. A round is started only when a step claimed no JWT: a JWT is what
 * integrators wait for, a proof can trail it. It is not awaited by the loop, which goes on claiming JWT
 * rounds while the proofs are signed (off the main thread with the Node signer), and starts the next
 * proof round only after another step found no JWT work.
 */
export interface ProofRounds {
  /** Starts a round beside the loop, unless one is in flight, the worker stops or no signer proves. */
  start(stopping: boolean): void
  /** One round, awaited: for `drain`. Returns the credentials it claimed. */
  runOne(): Promise<number>
  /** Settles when the round in flight, if any, has stored its proofs. */
  settled(): Promise<void>
  /** The credentials of the round in flight (`IssuerWorker.releaseHeld`); a proof stored meanwhile stays. */
  takeHeld(): Held
}

/**
 * Credentials per proof round (docs/data-integrity.md § Signing): with the fast path a proof is about 0.4 ms
 * (docs/decisions/0044-data-integrity-proofs-without-a-json-ld-processor.md), so 128 are about 50 ms of
 * proofs on one thread, in the Node signer's chunks of 8, against a claim and a store of a few ms; the 16
 * of the JSON-LD processor's 7 ms proofs would spend a third of a round on the database.
 */
export const PROOF_BATCH_SIZE = 128

export function createProofRounds(ctx: IssuerContext, proofBatchSize: number, onError: (error: unknown) => void): ProofRounds {
  let proving: Promise<void> | null = null
  const held = new Set<string>()
  return {
    start(stopping) {
      if (proving || stopping || !ctx.dataIntegritySigner) return
      proving = provePendingCredentials(ctx, proofBatchSize, held)
        // More may wait: the loop wakes, takes a step (a JWT claim first), then the next proof round.
        .then((claimed) => (claimed > 0 ? ctx.signingQueue.notify() : undefined))
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
