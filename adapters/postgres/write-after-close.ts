/**
 * postgres.js 3.4.9, the newest release, can write to a connection's socket after the connection closed:
 * a query issued on a pinned connection (a transaction's) that the server dropped is buffered for a
 * `setImmediate` that then calls `null.write`. The TypeError escapes every caller and ends the process
 * (porsager/postgres#1154 and #1208; fixes proposed in #1168 and #1209, not released). By then the unit
 * that used the connection has already failed with `CONNECTION_CLOSED` (`sql.begin` races the
 * connection's close) and the server has rolled its transaction back, so the lost write was moot.
 *
 * This recognises that one error, by its message and the driver frame it comes from, so that a process
 * can log it and go on rather than die during a database outage (server/process-guard.ts). Nothing else
 * matches: any other uncaught error still ends the process.
 */
export function isWriteAfterClose(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false
  const stack = error.stack ?? ''
  return (
    /reading 'write'|evaluating 'socket\.write'/.test(error.message) &&
    /nextWrite/.test(stack) &&
    /[\\/]postgres[\\/](?:[\d.]+[\\/])?src[\\/]connection\.js/.test(stack)
  )
}
