import { dispatchOutbox } from '../notifications/dispatch.ts'
import { mailRequestedResends } from '../issuances/notify.ts'
import { sweepExpiry } from '../issuances/expiry-sweep.ts'
import { provePendingCredentials } from './prove-pending.ts'
import { claimPending, signClaimed, signPendingCredentials, storeSigned, type ClaimedJob, type SignedCredential } from './sign-pending.ts'
import type { IssuerContext } from '../context.ts'
import { createWebhookSender } from '../webhooks/sender.ts'
import { CSV_FILE_LIFETIME_MS } from '../csv-uploads/csv-upload.ts'

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

export function createWorker(
  ctx: IssuerContext,
  { pollMs = 1000, batchSize = 1000, proofBatchSize = PROOF_BATCH_SIZE, onError = defaultOnError }: WorkerOptions = {},
): IssuerWorker {
  let running: Promise<void> | null = null
  let stopping = false
  let lastPurge = 0
  let lastSweep = -Infinity
  // A sibling loop: webhook attempts wait on receivers, which signing must not.
  const webhooks = createWebhookSender(ctx, { pollMs, onError })

  async function runOnce(): Promise<number> {
    const signed = await signPendingCredentials(ctx, batchSize)
    const proved = signed > 0 ? 0 : await provePendingCredentials(ctx, proofBatchSize)
    return signed + proved + (await housekeeping())
  }

  /**
   * The proof round in flight, beside the loop (docs/data-integrity.md § Signing). Started only when a
   * step claimed no JWT: a JWT is what integrators wait for, a proof can trail it. Not awaited by the
   * loop, which goes on claiming JWT rounds while the proofs are signed (off the main thread with the
   * Node signer), and starts the next proof round only after another step found no JWT work.
   */
  let proving: Promise<void> | null = null
  /** The credentials of the proof round in flight: what `releaseHeld` puts back besides the signing jobs. */
  const heldProofs = new Set<string>()
  function startProofRound(): void {
    if (proving || stopping || !ctx.dataIntegritySigner) return
    proving = provePendingCredentials(ctx, proofBatchSize, heldProofs)
      // More may wait: the loop wakes, takes a step (a JWT claim first), then the next proof round.
      .then((claimed) => (claimed > 0 ? ctx.signingQueue.notify() : undefined))
      .catch(onError)
      .finally(() => (proving = null))
  }

  async function housekeeping({ sweep = false } = {}): Promise<number> {
    // Resends asked for before their credential existed go to the outbox first, to be sent in this round.
    const resent = await mailRequestedResends(ctx)
    const now = ctx.clock.now()
    // Expiry reminders and `issuance.expired` (core/issuances/expiry-sweep.ts) before the mail, so that a reminder goes out this round.
    let swept = 0
    if (sweep || now - lastSweep >= EXPIRY_SWEEP_MS) {
      lastSweep = now
      swept = await sweepExpiry(ctx)
    }
    const mailed = (await dispatchOutbox(ctx)) + swept
    await ctx.shareViews.flush()
    if (now - lastPurge > 60_000) {
      lastPurge = now
      await ctx.storage.transaction(
        async (tx) => {
          await tx.idempotency.purgeExpired(now)
          await tx.clientAuthFailures.purgeEnded(now)
          // A session ends after its idle or absolute limit (core/admins/sessions.ts); `+ 1` because the purge's bounds are strict.
          const { sessionIdleSeconds, sessionAbsoluteSeconds } = ctx.config.adminConsole
          // A storage without the console's stores (core/ports/storage.ts ConsoleStores) has none of these to purge.
          await tx.adminSessions?.purgeEnded(now - sessionIdleSeconds * 1000 + 1, now - sessionAbsoluteSeconds * 1000 + 1)
          await tx.csvUploads?.purgeFiles(now - CSV_FILE_LIFETIME_MS)
        },
        { concurrent: true },
      )
    }
    return resent + mailed
  }

  /**
   * A pipeline over rounds: while the signer works on round n (off the main thread with the Node signer),
   * `step` claims round n + 1 and stores round n - 1, so the database work and the signing overlap.
   * The claim and the store are units that touch different rows (both `concurrent`), so they run side
   * by side too: a networked storage does both at once, on two connections.
   * Returns whether it claimed or stored anything.
   */
  interface Round {
    claimed: ClaimedJob[]
    signed: Promise<SignedCredential[]>
  }
  let signing: Round | null = null
  /** Rounds claimed and not stored yet: what `releaseHeld` puts back. */
  const held = new Set<Round>()
  async function step(): Promise<boolean> {
    const previous = signing
    signing = null
    // The round claimed goes to the signer at once, not after the store beside it: that store may be
    // waiting for the previous round's signatures. Held even when the store fails (`dropRounds` lets it go).
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
  }

  async function store(round: Round): Promise<void> {
    await storeSigned(ctx, await round.signed)
    held.delete(round)
  }

  /**
   * After a failed round: its jobs stay leased and are taken again when the lease ends. The round being
   * signed is awaited by nobody now; should it fail as well (its release cannot be stored during an
   * outage), that is one more round error, not an unhandled rejection ending the process.
   */
  function dropRounds(): void {
    signing?.signed.catch(onError)
    signing = null
    held.clear()
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      try {
        const busy = await step()
        if (!busy) startProofRound()
        // A stop during the step: claim no mail round more (docs/shutdown.md). A step that stored
        // credentials sweeps at once, so that a reminder due at issue goes out with the credential.
        const mailed = stopping ? 0 : await housekeeping({ sweep: busy })
        if (!busy && mailed === 0 && !stopping) await ctx.signingQueue.wait(pollMs)
      } catch (error) {
        dropRounds()
        onError(error)
        if (!stopping) await ctx.signingQueue.wait(pollMs)
      }
    }
    const last = signing
    signing = null
    if (last) await store(last).catch(onError)
    // Its proofs stored; a lease it could not use ends by itself, and another worker takes them then.
    await proving
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
      await Promise.all([running, webhooks.stop(), proving])
    },
    async releaseHeld() {
      const jobs = [...held].flatMap((round) => round.claimed.map((item) => item.job.issuanceId))
      const proofs = [...heldProofs]
      held.clear()
      heldProofs.clear()
      if (jobs.length === 0 && proofs.length === 0) return 0
      const now = ctx.clock.now()
      await ctx.storage.transaction(
        async (tx) => {
          for (const issuanceId of jobs) await tx.signingJobs.release(issuanceId, 'released at shutdown', now)
          // A proof stored meanwhile stays: the release ignores credentials whose proof is made.
          if (proofs.length > 0) await tx.credentials.releaseUnproven(proofs, 'released at shutdown', now)
        },
        { concurrent: true },
      )
      return jobs.length + proofs.length
    },
    async drain() {
      if (running) throw new Error('drain() runs the queue itself: stop() the running worker first')
      for (;;) {
        const busy = await step()
        const proved = busy ? 0 : await provePendingCredentials(ctx, proofBatchSize)
        const mailed = await housekeeping({ sweep: true })
        if (busy || proved > 0 || mailed > 0) continue
        if ((await ctx.storage.signingJobs.count()) === 0) {
          await webhooks.drain()
          return
        }
        // Jobs leased by another worker, or waiting for their retry: look again shortly.
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    runOnce,
    isRunning: () => running !== null && !stopping,
  }
}

/**
 * How often a running worker sweeps for expiry reminders and expired credentials: a notice may come
 * this much after its time, and the sweeps' few indexed reads cost nothing at this pace.
 */
const EXPIRY_SWEEP_MS = 10_000

/**
 * Credentials per proof round (docs/data-integrity.md § Signing): with the fast path a proof is about 0.4 ms
 * (docs/decisions/0044-data-integrity-proofs-without-a-json-ld-processor.md), so 128 are about 50 ms of
 * proofs on one thread, in the Node signer's chunks of 8, against a claim and a store of a few ms; the 16
 * of the JSON-LD processor's 7 ms proofs would spend a third of a round on the database.
 */
const PROOF_BATCH_SIZE = 128

function defaultOnError(error: unknown): void {
  console.error('clubcred: worker round failed:', error)
}
