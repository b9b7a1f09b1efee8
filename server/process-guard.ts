import process from 'node:process'
import { isWriteAfterClose } from '../adapters/postgres/write-after-close.ts'
import type { Logger } from './log.ts'

/**
 * Keeps a server on PostgreSQL alive through the driver's one known uncatchable error, a write after a
 * connection closed (adapters/postgres/write-after-close.ts), logging one line (`warn`). Any other
 * uncaught error is logged (`fatal`) and ends the process with exit code 1, as it would without this
 * guard: a supervisor restarts it, and no accepted work is lost (every issuance is stored before its
 * answer). `fatal` must write synchronously: the process exits right after it.
 */
export function guardAgainstDriverDefects(warn: (line: string) => void, fatal: (error: unknown) => void = (error) => console.error(error)): void {
  process.on('uncaughtException', (error) => {
    if (isWriteAfterClose(error)) {
      warn(
        'clubcred: a PostgreSQL connection closed under a unit of work; the driver failed to write to it after the close (postgres.js#1208). The unit had already failed; going on.',
      )
      return
    }
    fatal(error)
    process.exit(1)
  })
}

/**
 * The guard of a server entry, logging through its logger: `current()` is read at each uncaught error,
 * so that the entry can swap the start-up logger for the configured one.
 */
export function guardProcess(current: () => Logger): void {
  guardAgainstDriverDefects(
    (line) => current().warn(line),
    (error) => current().fatal({ err: error }, 'uncaught exception; exiting'),
  )
}
