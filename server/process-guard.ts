import process from 'node:process'
import { isWriteAfterClose } from '../adapters/postgres/write-after-close.ts'
import { isStrayConnectionError } from '../adapters/postgres/stray-connection-error.ts'
import type { Logger } from './log.ts'

/**
 * Keeps a server on PostgreSQL alive through the driver's known uncatchable errors, logging one line
 * (`warn`) for each: a write after a connection closed (adapters/postgres/write-after-close.ts), and a
 * lost connection's error on a query of the driver's own that nobody awaits
 * (adapters/postgres/stray-connection-error.ts). Any other uncaught error or unhandled rejection is
 * logged (`fatal`) and ends the process with exit code 1, as it would without this guard: a supervisor
 * restarts it, and no accepted work is lost (every issuance is stored before its answer). `fatal` must
 * write synchronously: the process exits right after it.
 */
export function guardAgainstDriverDefects(warn: (line: string) => void, fatal: (error: unknown) => void = (error) => console.error(error)): void {
  const onUncaught = (error: unknown) => {
    if (isWriteAfterClose(error)) {
      warn(
        'a PostgreSQL connection closed under a unit of work; the driver failed to write to it after the close (postgres.js#1208). The unit had already failed; going on.',
      )
      return
    }
    if (isStrayConnectionError(error)) {
      warn(
        `a PostgreSQL connection was lost while the driver ran a query of its own, whose failure it does not handle (${(error as { code: string }).code}; postgres.js#1192). Nothing of ours was on it; going on.`,
      )
      return
    }
    fatal(error)
    process.exit(1)
  }
  process.on('uncaughtException', onUncaught)
  // Listening here also covers runtimes that do not turn an unhandled rejection into an uncaught exception.
  process.on('unhandledRejection', onUncaught)
}

/**
 * The guard of a server entry, logging through its logger: `current()` is read at each line, so that the
 * entry can swap the start-up logger for the configured one. The runtime's own warnings (a deprecation,
 * a listener leak) become `warn` lines of that logger too: Node prints them to stderr by itself, and a
 * log collector reads every line after the listening line as JSON (docs/logs.md).
 */
export function guardProcess(current: () => Logger): void {
  guardAgainstDriverDefects(
    (line) => current().warn(line),
    (error) => current().fatal({ err: error }, 'uncaught exception; exiting'),
  )
  // Node's printer is its one `warning` listener; without it, the warning is still emitted, to ours.
  process.removeAllListeners('warning')
  process.on('warning', (warning) => current().warn({ err: warning }, 'runtime warning'))
}
