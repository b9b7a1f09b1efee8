/**
 * The server's log (docs/logs.md): JSON lines on stdout through pino, at `CLUBCRED_LOG_LEVEL`. What may
 * enter a line is decided where the line is made (never a body, never a raw path, only safe headers);
 * this file is the net under that: pino's `redact` blanks secret-named fields wherever they appear, and
 * every error is reduced to its type, code, message and stack with secrets and e-mail addresses masked.
 */
import pino, { type DestinationStream, type Logger } from 'pino'
import { maskSecrets } from '../adapters/shared/mask-secrets.ts'

export type { Logger } from 'pino'
export { maskSecrets, maskedExcerpt } from '../adapters/shared/mask-secrets.ts'

/** pino's levels, most severe first; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** Field names that hold a secret wherever they appear, one level deep or at the top. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'password',
  'secret',
  'client_secret',
  'token',
  'access_token',
  'apiKey',
  'masterKey',
  'privateJwk',
  'd',
]
const REDACT_PATHS = SECRET_FIELDS.flatMap((name) => [`["${name}"]`, `*["${name}"]`, `*.headers["${name}"]`])

/**
 * A logger writing JSON lines to `destination`: stdout by default (the server), or stderr (the CLI,
 * whose stdout is its JSON answer), written synchronously so that the last line before an exit is not lost.
 */
export function createLogger({ level, destination = 'stdout' }: { level: LogLevel; destination?: DestinationStream | 'stdout' | 'stderr' }): Logger {
  return pino(
    {
      level,
      base: { service: 'clubcred' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: errorFields },
    },
    typeof destination === 'string' ? pino.destination({ dest: destination === 'stdout' ? 1 : 2, sync: true }) : destination,
  )
}

export interface ErrorFields {
  type: string
  message: string
  code?: string
  stack?: string
  cause?: ErrorFields
}

/**
 * What a log line shows of an error: its type, code, message and stack, masked by `maskSecrets`, and its
 * cause the same way. Never the error's other fields: a driver's error may carry the query's parameters,
 * a mailer's the envelope.
 */
export function errorFields(error: unknown, depth = 0): ErrorFields {
  if (!(error instanceof Error)) return { type: typeof error, message: maskSecrets(String(error)) }
  const fields: ErrorFields = { type: error.name, message: maskSecrets(error.message) }
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' || typeof code === 'number') fields.code = String(code)
  if (error.stack) fields.stack = maskSecrets(error.stack)
  if (error.cause !== undefined && depth < 3) fields.cause = errorFields(error.cause, depth + 1)
  return fields
}
