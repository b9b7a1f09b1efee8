import process from 'node:process'
import { isStrayConnectionError } from '../../adapters/postgres/stray-connection-error.ts'
import { isWriteAfterClose } from '../../adapters/postgres/write-after-close.ts'

/**
 * For a test file that runs an issuer in its own process and takes the database away: lets through the
 * driver's two known uncatchable errors, as a server does (server/process-guard.ts), and hands every
 * other uncaught error on to the test runner, which fails the test with it. Without this, a write after
 * a connection closed (adapters/postgres/write-after-close.ts) fails an outage test at random, though
 * the product goes on from it by design.
 */
export function tolerateDriverDefects(): void {
  if (!process.hasUncaughtExceptionCaptureCallback()) {
    process.setUncaughtExceptionCaptureCallback((error) => {
      if (isWriteAfterClose(error) || isStrayConnectionError(error)) return
      ;(process.emit as (event: string, ...args: unknown[]) => boolean)('uncaughtException', error, 'uncaughtException')
    })
  }
}
