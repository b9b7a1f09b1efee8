import type { IssuerContext } from '../context.ts'
import type { IssuerWorker } from '../worker/loop.ts'

/**
 * Why a process is not ready (docs/operations-metrics.md § Readiness: `GET /readyz`): `storage-unavailable` (the storage
 * did not answer a trivial query), `migrations-pending` (it answers, with a schema older than this code),
 * `worker-stopped` (this process should sign and its loop is not running) and `signing-stuck` (the oldest
 * pending signing job waits longer than the bound).
 */
export type NotReadyReason = 'storage-unavailable' | 'migrations-pending' | 'worker-stopped' | 'signing-stuck'

export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason }

export interface ReadinessOptions {
  /** Whether this process runs the signing worker (`all`, `worker`); an `api` process answers for its storage only. */
  signs: boolean
  /** The oldest pending signing job may wait this long (ms) before the queue counts as stuck. */
  maxSigningAgeMs: number
}

/** The signing queue at a glance: jobs not yet signed, and how long the oldest has waited (ms, 0 when none). */
export interface SigningQueueState {
  depth: number
  oldestAgeMs: number
}

/** Reads the queue's depth and the age of its oldest job, on the issuer's clock. */
export async function signingQueueState(ctx: IssuerContext): Promise<SigningQueueState> {
  const { depth, oldestCreatedAt } = await ctx.storage.signingJobs.countBacklog()
  return { depth, oldestAgeMs: oldestCreatedAt === null ? 0 : Math.max(0, ctx.clock.now() - oldestCreatedAt) }
}

/**
 * Whether this process should get traffic: the storage answers with every migration applied and, when
 * it signs, its worker loop runs and the queue it serves is not stuck. Never throws: a storage that
 * fails is the answer `storage-unavailable`.
 *
 * The queue is the deployment's, not this process's: with several workers on one PostgreSQL, every one
 * of them reports `signing-stuck` while the oldest job waits too long, since any of them should have
 * taken it.
 */
export async function checkReadiness(ctx: IssuerContext, worker: IssuerWorker, { signs, maxSigningAgeMs }: ReadinessOptions): Promise<Readiness> {
  let queue: SigningQueueState | null = null
  try {
    const { migrated } = await ctx.storage.ping()
    if (!migrated) return { ready: false, reason: 'migrations-pending' }
    if (signs) queue = await signingQueueState(ctx)
  } catch {
    return { ready: false, reason: 'storage-unavailable' }
  }
  if (!signs || queue === null) return { ready: true }
  if (!worker.isRunning()) return { ready: false, reason: 'worker-stopped' }
  if (queue.depth > 0 && queue.oldestAgeMs > maxSigningAgeMs) return { ready: false, reason: 'signing-stuck' }
  return { ready: true }
}
