/**
 * postgres.js 3.4.9 runs queries of its own on a new connection (the array types it fetches first,
 * `fetch_types`) and drops their promises: when the server goes away while one runs, its rejection
 * reaches nobody and ends the process as an unhandled rejection (porsager/postgres#1192 and #1223, not
 * released). Our own queries never get there: each is awaited inside the unit or read that made it,
 * and that caller already failed with StorageUnavailable and rolled back.
 *
 * This recognises such a stray error: a lost connection (the driver's connection codes, or a server
 * shutdown or connection-class SQLSTATE) whose stack holds nothing but the driver's and Node's own
 * frames. Any query of ours carries its origin (the frame that made it) in its error's stack, so a
 * forgotten query of ours is still fatal, and so is every other uncaught error.
 */
const LOST_CONNECTION_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'])
const LOST_CONNECTION_STATES = /^(?:57P0[123]|08...)$/

/** Node's (`node:events`) and Deno's (`ext:deno_node/…`) own frames, and `new Promise (<anonymous>)`. */
const RUNTIME_FRAME = /\((?:node|ext):[^()]+\)$|^\s+at (?:node|ext):|\(<anonymous>\)$/
const DRIVER_FRAME = /[\\/]postgres[\\/](?:[\d.]+[\\/])?src[\\/](?:connection|index|query)\.js/

export function isStrayConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string' || !(LOST_CONNECTION_CODES.has(code) || LOST_CONNECTION_STATES.test(code))) return false
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line))
  return frames.some((frame) => DRIVER_FRAME.test(frame)) && frames.every((frame) => DRIVER_FRAME.test(frame) || RUNTIME_FRAME.test(frame))
}
