import { dispatchOutbox } from '../notifications/dispatch.ts'
import { signPendingCredentials } from './sign-pending.ts'
import type { IssuerContext } from '../context.ts'

export interface WorkerOptions {
  /** How often an idle worker looks for work that another process queued (ms). */
  pollMs?: number
  /** Jobs per round. */
  batchSize?: number
  /** Called with errors of a round; the worker keeps going. */
  onError?: (error: unknown) => void
}

/** The background worker: signs queued credentials, sends outbox mail, drops expired idempotency keys. */
export interface IssuerWorker {
  /** Starts the loop; idempotent. */
  start(): void
  /** Stops the loop after the current round. */
  stop(): Promise<void>
  /** Runs rounds until no signing job and no due mail is left: for tests and scripts. */
  drain(): Promise<void>
  /** One round; returns the jobs and messages it handled. */
  runOnce(): Promise<number>
}

export function createWorker(ctx: IssuerContext, { pollMs = 1000, batchSize = 1000, onError = defaultOnError }: WorkerOptions = {}): IssuerWorker {
  let running: Promise<void> | null = null
  let stopping = false
  let lastPurge = 0

  async function runOnce(): Promise<number> {
    const signed = await signPendingCredentials(ctx, batchSize)
    const mailed = await dispatchOutbox(ctx)
    const now = ctx.clock.now()
    if (now - lastPurge > 60_000) {
      lastPurge = now
      await ctx.storage.transaction((tx) => tx.idempotency.purgeExpired(now))
    }
    return signed + mailed
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let handled = 0
      try {
        handled = await runOnce()
      } catch (error) {
        onError(error)
      }
      if (handled === 0 && !stopping) await ctx.signingQueue.wait(pollMs)
    }
  }

  return {
    start() {
      if (running) return
      stopping = false
      running = loop().finally(() => {
        running = null
      })
    },
    async stop() {
      stopping = true
      ctx.signingQueue.notify()
      await running
    },
    async drain() {
      for (;;) {
        const handled = await runOnce()
        if (handled === 0 && (await ctx.storage.signingJobs.count()) === 0) return
        if (handled === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    runOnce,
  }
}

function defaultOnError(error: unknown): void {
  console.error('clubcred: worker round failed:', error)
}
