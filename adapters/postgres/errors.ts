import { StorageConflict, StorageUnavailable } from '../../core/errors.ts'

/** Socket and driver codes of a connection that could not be made or was lost (postgres.js, node:net). */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * SQLSTATEs that mean "not now" rather than "wrong": admin or crash shutdown (57P01..57P03), too many
 * connections (53300), a statement or an idle transaction that ran out of time (57014, 25P03).
 * Class 08 (connection exception) is matched by its prefix.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25P03'])

/**
 * Translates a driver error into core's vocabulary: a uniqueness or other integrity violation (class
 * 23) becomes StorageConflict, an unreachable database StorageUnavailable, each with the driver error as
 * `cause`. Anything else (core's own errors thrown through a unit, programming errors) passes unchanged.
 */
export function translateError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof StorageConflict || error instanceof StorageUnavailable) return error
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string') return error
  if (code.startsWith('23')) return new StorageConflict('constraint violated', { cause: error })
  if (CONNECTION_CODES.has(code) || code.startsWith('08') || UNAVAILABLE_STATES.has(code)) {
    return new StorageUnavailable(`database unavailable (${code})`, { cause: error })
  }
  return error
}

/** Runs `work`, translating what it throws. */
export async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw translateError(error)
  }
}
