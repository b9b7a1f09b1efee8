/**
 * A child process for test/server/log-secrets.test.ts: the server entries' guard (`guardProcess`) with
 * the server's logger, then an uncaught error whose message names a recipient's address.
 */
import { guardProcess } from '../../server/process-guard.ts'
import { createLogger } from '../../server/log.ts'

const log = createLogger({ level: 'info' })
guardProcess(() => log)
setTimeout(() => {
  throw new Error('cannot mail lee.uncaught@example.org')
}, 10)
