import { DEFAULTS, defaultUrls, isSigningLease, SIGNING_LEASE_RANGE, type IssuerUrls } from '../core/config.ts'

/** The standalone server's settings, read from the environment (docs/decisions.md, Addresses). */
export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  /** `CLUBCRED_MASTER_KEY` as given (base64url or hex of 32 bytes), or `undefined` to use the data dir's key file. */
  masterKey: string | undefined
  /** URL overrides from the environment; the rest follow the port the server listens on. */
  urlOverrides: Partial<IssuerUrls>
  smtpUrl: string | undefined
  /** `CLUBCRED_MAIL_FROM`: the From of recipient mail. */
  mailFrom: string | undefined
  /** `CLUBCRED_SIGNING_LEASE_MS`: the issuer's `signingLeaseMs` (`core/config.ts`). Default 60 s. */
  signingLeaseMs: number
  /** Limits of the Node HTTP server for direct exposure (`server/node.ts`; Deno's `Deno.serve` has its own). */
  http: HttpServerLimits
  /** `CLUBCRED_DATABASE_URL` (`postgres://…`): PostgreSQL instead of the data dir's SQLite file. */
  database: DatabaseSettings | undefined
  /** `CLUBCRED_ROLE`: what this process does (docs/deployment.md). */
  role: ServerRole
  /** `CLUBCRED_WEBHOOKS_ALLOW_PRIVATE=1`: webhooks may use http:// and private addresses (core/config.ts `webhooks.allowPrivate`). */
  webhooksAllowPrivate: boolean
  /**
   * `CLUBCRED_SHUTDOWN_TIMEOUT_MS`: on SIGTERM or SIGINT, how long the process waits for requests in
   * flight and the worker's round before it gives up on them and exits 1 (docs/shutdown.md). Default 30 s.
   */
  shutdownTimeoutMs: number
}

/**
 * `all` serves HTTP and runs the worker; `api` serves HTTP only (it queues, another process signs);
 * `worker` signs, mails and keeps house, and listens only for `/healthz`.
 */
export type ServerRole = 'all' | 'api' | 'worker'
export const SERVER_ROLES: readonly ServerRole[] = ['all', 'api', 'worker']

export interface DatabaseSettings {
  url: string
  /** `CLUBCRED_DATABASE_POOL_SIZE`: connections this process keeps at most. Default 10. */
  poolSize: number
  /** `CLUBCRED_DATABASE_STATEMENT_TIMEOUT_MS`: a statement (waiting for a lock included) is cancelled after this. Default 30 s. */
  statementTimeoutMs: number
}

/**
 * What a client may hold of the server: a server exposed directly (no proxy in front) must cut off a
 * client that sends its headers byte by byte (slowloris) and cap the sockets it keeps open.
 */
export interface HttpServerLimits {
  /** `CLUBCRED_HEADERS_TIMEOUT_MS`: the request line and headers must arrive within this, else 408 and the socket closes. Default 10 s. */
  headersTimeoutMs: number
  /** `CLUBCRED_REQUEST_TIMEOUT_MS`: the whole request, body included (at most 1 MiB), within this; else 408. Default 60 s: 1 MiB at 150 kbit/s. */
  requestTimeoutMs: number
  /** `CLUBCRED_KEEP_ALIVE_TIMEOUT_MS`: an idle keep-alive socket is closed after this. Default 5 s (Node's). */
  keepAliveTimeoutMs: number
  /**
   * `CLUBCRED_MAX_CONNECTIONS`: open sockets at most; more are closed at once. Default 512: within the
   * usual limit of 1024 open files, with room for SQLite, fonts and SMTP (raise `ulimit -n` to go higher).
   */
  maxConnections: number
  /** `CLUBCRED_MAX_HEADERS_COUNT`: header lines read per request at most; the rest are ignored. Default 100 (Node's is 2000). */
  maxHeadersCount: number
}

/** Kubernetes' default grace period is 30 s too: a drain that fits in it ends before the SIGKILL. */
export const SHUTDOWN_TIMEOUT_DEFAULT_MS = 30_000

export const HTTP_SERVER_DEFAULTS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
  maxHeadersCount: 100,
}

const HTTP_SERVER_ENV: Record<keyof HttpServerLimits, string> = {
  headersTimeoutMs: 'CLUBCRED_HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'CLUBCRED_REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'CLUBCRED_KEEP_ALIVE_TIMEOUT_MS',
  maxConnections: 'CLUBCRED_MAX_CONNECTIONS',
  maxHeadersCount: 'CLUBCRED_MAX_HEADERS_COUNT',
}

/** The HTTP limits from the environment; a value that is not a positive integer is a start-up error. */
function readHttpLimits(env: Record<string, string | undefined>): HttpServerLimits {
  const limits = { ...HTTP_SERVER_DEFAULTS }
  for (const [name, variable] of Object.entries(HTTP_SERVER_ENV) as [keyof HttpServerLimits, string][]) {
    limits[name] = positiveInteger(env, variable, limits[name])
  }
  // Node requires it: the headers are part of the request.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new TypeError(`CLUBCRED_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed CLUBCRED_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`)
  }
  return limits
}

function readSigningLease(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULTS.signingLeaseMs
  const lease = /^[0-9]+$/.test(value) ? Number(value) : NaN
  if (!isSigningLease(lease)) {
    throw new TypeError(`CLUBCRED_SIGNING_LEASE_MS must be an integer from ${SIGNING_LEASE_RANGE.min} to ${SIGNING_LEASE_RANGE.max} (ms), got ${value}`)
  }
  return lease
}

/** A positive integer from the environment, or `fallback` when unset; anything else is a start-up error. */
function positiveInteger(env: Record<string, string | undefined>, variable: string, fallback: number): number {
  const value = env[variable]
  if (value === undefined || value === '') return fallback
  if (!/^[1-9][0-9]*$/.test(value)) throw new TypeError(`${variable} must be a positive integer, got ${value}`)
  return Number(value)
}

/**
 * PostgreSQL when `CLUBCRED_DATABASE_URL` is set. Every node must then seal and open keys with the same
 * master key, and the key must never be in the database it protects: so it comes from
 * `CLUBCRED_MASTER_KEY`, not from a file that each node would generate for itself.
 */
function readDatabase(env: Record<string, string | undefined>): DatabaseSettings | undefined {
  const url = env.CLUBCRED_DATABASE_URL
  if (url === undefined || url === '') return undefined
  if (!/^postgres(ql)?:\/\//.test(url)) throw new TypeError('CLUBCRED_DATABASE_URL must be a postgres:// or postgresql:// URL')
  if (!env.CLUBCRED_MASTER_KEY) {
    throw new TypeError(
      'CLUBCRED_DATABASE_URL is set but CLUBCRED_MASTER_KEY is not: every node needs the same master key, and it is never stored in the database',
    )
  }
  return {
    url,
    poolSize: positiveInteger(env, 'CLUBCRED_DATABASE_POOL_SIZE', 10),
    statementTimeoutMs: positiveInteger(env, 'CLUBCRED_DATABASE_STATEMENT_TIMEOUT_MS', 30_000),
  }
}

function readRole(env: Record<string, string | undefined>): ServerRole {
  const role = env.CLUBCRED_ROLE || 'all'
  if (!(SERVER_ROLES as readonly string[]).includes(role)) throw new TypeError(`CLUBCRED_ROLE must be one of ${SERVER_ROLES.join(', ')}, got ${role}`)
  return role as ServerRole
}

export function readServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 8787 : Number(env.PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`PORT must be a port number, got ${env.PORT}`)
  const overrides: Partial<IssuerUrls> = {}
  const set = (name: keyof IssuerUrls, value: string | undefined) => {
    if (value) overrides[name] = value
  }
  set('base', env.CLUBCRED_BASE_URL)
  set('auth', env.CLUBCRED_AUTH_URL)
  set('public', env.CLUBCRED_PUBLIC_URL)
  set('shareHost', env.CLUBCRED_SHARE_HOST)
  set('legacyBase', env.CLUBCRED_LEGACY_BASE_URL)
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: env.CLUBCRED_DATA_DIR || './data',
    masterKey: env.CLUBCRED_MASTER_KEY || undefined,
    urlOverrides: overrides,
    smtpUrl: env.CLUBCRED_SMTP_URL || undefined,
    mailFrom: env.CLUBCRED_MAIL_FROM || undefined,
    signingLeaseMs: readSigningLease(env.CLUBCRED_SIGNING_LEASE_MS),
    http: readHttpLimits(env),
    database: readDatabase(env),
    role: readRole(env),
    webhooksAllowPrivate: readFlag(env, 'CLUBCRED_WEBHOOKS_ALLOW_PRIVATE'),
    shutdownTimeoutMs: positiveInteger(env, 'CLUBCRED_SHUTDOWN_TIMEOUT_MS', SHUTDOWN_TIMEOUT_DEFAULT_MS),
  }
}

function readFlag(env: Record<string, string | undefined>, name: string): boolean {
  const value = env[name]
  if (value === undefined || value === '' || value === '0') return false
  if (value === '1') return true
  throw new TypeError(`${name} must be 1 or 0, got ${value}`)
}

/** The issuer URLs for a server listening on `port`: the defaults (docs/decisions.md, Addresses) under the overrides. */
export function resolveUrls(config: ServerConfig, port: number): IssuerUrls {
  return { ...defaultUrls(port), ...config.urlOverrides }
}
