/**
 * What SIGTERM and SIGINT do to a standalone server, the same on Node and Deno (docs/shutdown.md): the
 * first signal starts the graceful shutdown, which ends the process with 0 when everything finished
 * within the bound and 1 when the bound cut something off; a second signal ends it at once with the
 * shell's code for death by that signal (128 + its number: 130 for SIGINT, 143 for SIGTERM).
 */
import type { Issuer } from '../index.ts'
import type { Logger } from './log.ts'

/**
 * Where the shutdown reports its steps: the server's logger, so that every line after the listening line
 * is one JSON object (docs/logs.md § Where it goes).
 */
export type ShutdownLog = Pick<Logger, 'info' | 'warn' | 'error'>

export type ShutdownSignal = 'SIGINT' | 'SIGTERM'
export const SHUTDOWN_SIGNALS: readonly ShutdownSignal[] = ['SIGINT', 'SIGTERM']

/** `complete`: every request answered, the worker's rounds stored, storage closed. `timed-out`: the bound cut in. */
export type ShutdownOutcome = 'complete' | 'timed-out'

const SIGNAL_NUMBERS: Record<ShutdownSignal, number> = { SIGINT: 2, SIGTERM: 15 }

/** How long after the bound the process exits whatever it still waits for: the bound's own clean-up must not hang it. */
const BACKSTOP_MS = 10_000

export interface SignalHandling {
  /** Registers a handler for a signal: `process.on` on Node, `Deno.addSignalListener` on Deno. */
  listen(signal: ShutdownSignal, handler: () => void): void
  /** The graceful shutdown, bounded by `timeoutMs` itself; it stops the listener before its first `await`. */
  shutdown(): Promise<ShutdownOutcome>
  timeoutMs: number
  exit(code: number): void
  log: ShutdownLog
}

export function exitCodeForSignal(signal: ShutdownSignal): number {
  return 128 + SIGNAL_NUMBERS[signal]
}

export function handleShutdownSignals({ listen, shutdown, timeoutMs, exit, log }: SignalHandling): void {
  let stopping = false
  for (const signal of SHUTDOWN_SIGNALS) {
    listen(signal, () => {
      if (stopping) {
        log.warn({ signal }, 'a second signal: exiting at once')
        return exit(exitCodeForSignal(signal))
      }
      stopping = true
      // Started before the line is logged: whoever reads the line finds the listener closed.
      const shutdownEnds = shutdown()
      log.info({ signal, timeoutMs }, 'shutting down; a second signal exits at once')
      setTimeout(() => {
        log.error({ timeoutMs }, 'shutdown did not end after its bound: exiting')
        exit(1)
      }, timeoutMs + BACKSTOP_MS)
      shutdownEnds.then(
        (outcome) => {
          if (outcome === 'complete') log.info('shut down')
          else log.warn({ timeoutMs }, 'shutdown bound reached: requests or work cut off')
          exit(outcome === 'complete' ? 0 : 1)
        },
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed')
          exit(1)
        },
      )
    })
  }
}

/** Resolves `true` when `work` ends within `ms`, `false` when the time runs out first (the work goes on). */
export async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))))
  try {
    return await Promise.race([work.then(() => true as const), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The part after HTTP has stopped, common to both runtimes: the worker, told to stop when the drain
 * began, stores the rounds it holds; then storage closes. When the bound is reached first, the signing
 * jobs the worker still holds go back to the queue and the process does not wait for the rest.
 */
export async function finishIssuer(issuer: Issuer, worker: Promise<void>, deadline: number, log: ShutdownLog): Promise<ShutdownOutcome> {
  if (!(await within(deadline - Date.now(), worker))) {
    await putBackHeld(issuer, log)
    return 'timed-out'
  }
  await issuer.close()
  return 'complete'
}

/**
 * Past the bound: the signing jobs the worker claimed and has not stored go back to the queue, so that
 * another worker signs them now rather than when their lease ends. Storage stays open (requests cut off
 * may still be using it); the process exits next, and an unfinished unit of work is rolled back.
 */
export async function putBackHeld(issuer: Issuer, log: ShutdownLog): Promise<void> {
  const put = issuer.worker.releaseHeld().then(
    (jobs) => {
      if (jobs > 0) log.info({ jobs }, 'held signing jobs and proofs put back in the queue for another worker')
    },
    (error: unknown) => log.warn({ err: error }, 'could not put the held signing jobs back: they are taken again when their lease ends'),
  )
  if (!(await within(BACKSTOP_MS / 2, put))) log.warn('putting the held signing jobs back takes too long: they are taken again when their lease ends')
}
