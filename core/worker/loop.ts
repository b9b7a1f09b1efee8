import type { IssuerContext } from '../context.ts'
import { createWebhookSender } from '../webhooks/sender.ts'
import { putBackHeld } from './held.ts'
import { createHousekeeping } from './housekeeping.ts'
import { createJwtRounds } from './jwt-round.ts'
import { createMailRounds } from './mail.ts'
import { createProofRounds, PROOF_BATCH_SIZE } from './proof-round.ts'

export interface WorkerOptions {
  /** How often an idle worker looks for work that another process queued (ms). */
  pollMs?: number
  /** Jobs per round. */
  batchSize?: number
  /**
   * Credentials per round of Data Integrity proofs, made when no signing job waits. Small, so that a
   * round in flight when JWT work arrives ends soon (docs/data-integrity.md § Signing).
   */
  proofBatchSize?: number
  /** Called with errors of a round; the worker keeps going. */
  onError?: (error: unknown) => void
}

/**
 * The background worker: signs queued credentials, sends outbox mail and webhook deliveries, drops
 * expired idempotency keys and ended windows of failed client authentication.
 */
export interface IssuerWorker {
  /** Starts the loop; idempotent. */
  start(): void
  /**
   * Stops the loop: nothing new is claimed, and the rounds it holds (claimed, being signed) are signed and
   * stored before it resolves; the webhook sender stores the outcomes of the attempts in flight.
   */
  stop(): Promise<void>
  /**
   * Puts the signing jobs this worker has claimed and not stored yet back in the queue, claimable by
   * another worker at once rather than when their lease ends: for a shutdown that cannot wait for its
   * round any longer (docs/shutdown.md). A round stored meanwhile keeps its credentials: the storage
   * refuses a second credential for an issuance. The credentials of the proof round in flight go back
   * the same way (a proof stored meanwhile stays). Returns how many jobs and proofs it put back.
   */
  releaseHeld(): Promise<number>
  /**
   * Runs rounds until no signing job, no proof to make, no due mail and no due webhook delivery is left:
   * for tests and scripts.
   */
  drain(): Promise<void>
  /** One round; returns the jobs and messages it handled. */
  runOnce(): Promise<number>
  /** Whether the loop runs: started and not stopped (readiness, core/health/readiness.ts). */
  isRunning(): boolean
}

/**
 * The worker as a loop of small jobs, one file each (docs/architecture.md, the worker):
 * JWT rounds, proof rounds, mail, housekeeping, and beside them the webhook sender, a sibling loop
 * because webhook attempts wait on receivers, which signing must not. The jobs that claim work give
 * back what they hold at a shutdown that cannot wait (`releaseHeld`).
 */
export function createWorker(
  ctx: IssuerContext,
  { pollMs = 1000, batchSize = 1000, proofBatchSize = PROOF_BATCH_SIZE, onError = defaultOnError }: WorkerOptions = {},
): IssuerWorker {
  let running: Promise<void> | null = null
  let stopping = false
  /** Whether the last step of the loop claimed or stored JWTs: the proof rounds then keep to one small round at a time. */
  let jwtsBusy = false
  const jwtRounds = createJwtRounds(ctx, batchSize, onError)
  const proofRounds = createProofRounds(ctx, proofBatchSize, { stopping: () => stopping, jwtsWaiting: () => jwtsBusy, onError })
  const mail = createMailRounds(ctx)
  const housekeeping = createHousekeeping(ctx)
  const webhooks = createWebhookSender(ctx, { pollMs, onError })

  /** Mail, then housekeeping, after each step. Returns the messages it handled. */
  async function chores({ sweep = false } = {}): Promise<number> {
    const mailed = await mail.run({ sweep })
    await housekeeping.run()
    return mailed
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      try {
        const busy = await jwtRounds.step()
        jwtsBusy = busy
        // Beside the JWT rounds, not after them: the proofs take the signer's own threads, niced.
        proofRounds.start()
        // A stop during the step: claim no mail round more (docs/shutdown.md). A step that stored
        // credentials sweeps at once, so that a reminder due at issue goes out with the credential.
        const mailed = stopping ? 0 : await chores({ sweep: busy })
        if (!busy && mailed === 0 && !stopping) await ctx.signingQueue.wait(pollMs)
      } catch (error) {
        jwtsBusy = false
        jwtRounds.drop()
        onError(error)
        if (!stopping) await ctx.signingQueue.wait(pollMs)
      }
    }
    await jwtRounds.finish()
    // Its proofs stored; a lease it could not use ends by itself, and another worker takes them then.
    await proofRounds.settled()
  }

  return {
    start() {
      if (running) return
      stopping = false
      // Jobs queued by another process wake this worker too, where the storage can tell.
      const unwatch = ctx.storage.watchSigningJobs?.(() => ctx.signingQueue.notify())
      running = loop().finally(() => {
        unwatch?.()
        running = null
      })
      webhooks.start()
    },
    async stop() {
      stopping = true
      ctx.signingQueue.notify()
      // The proof round in flight is stored too: its proofs are made work, cheap to keep.
      await Promise.all([running, webhooks.stop(), proofRounds.settled()])
    },
    releaseHeld: () => putBackHeld(ctx.storage, [jwtRounds.takeHeld(), proofRounds.takeHeld()], ctx.clock.now()),
    async drain() {
      if (running) throw new Error('drain() runs the queue itself: stop() the running worker first')
      for (;;) {
        const busy = await jwtRounds.step()
        jwtsBusy = busy
        const proved = busy ? 0 : await proofRounds.runOne()
        const mailed = await chores({ sweep: true })
        if (busy || proved > 0 || mailed > 0) continue
        if ((await ctx.storage.signingJobs.count()) === 0) {
          await webhooks.drain()
          return
        }
        // Jobs leased by another worker, or waiting for their retry: look again shortly.
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    async runOnce() {
      const signed = await jwtRounds.runOne()
      const proved = signed > 0 ? 0 : await proofRounds.runOne()
      return signed + proved + (await chores())
    },
    isRunning: () => running !== null && !stopping,
  }
}

function defaultOnError(error: unknown): void {
  console.error('clubcred: worker round failed:', error)
}
