/**
 * A child process for test/server/log-lines.test.ts: the server entries' guard (`guardProcess`) with the
 * server's logger, then a runtime warning as a dependency would raise one while the server runs.
 */
import { guardProcess } from '../../server/process-guard.ts'
import { createLogger } from '../../server/log.ts'

const log = createLogger({ level: 'info' })
guardProcess(() => log)
process.emitWarning('this call is deprecated', { type: 'DeprecationWarning', code: 'DEP0999' })
// Warnings are emitted on the next tick: stay until then.
setTimeout(() => {}, 10)
