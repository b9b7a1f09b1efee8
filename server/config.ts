import { defaultUrls, type IssuerUrls } from '../core/config.ts'
import { readVariables, SERVER_ROLES, VARIABLES, type ServerRole } from './environment.ts'
import type { LogLevel } from './log.ts'

/** The standalone server's settings, read from the environment (docs/decisions/0001-addresses.md). */
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
  /** `CLUBCRED_CLUB_CACHE_SIZE`: the issuer's `clubCacheSize` (`core/config.ts`), clubs whose keys and status lists stay cached. Default 1,000. */
  clubCacheSize: number
  /** Limits of the Node HTTP server for direct exposure (`server/node.ts`; Deno's `Deno.serve` has its own). */
  http: HttpServerLimits
  /** `CLUBCRED_DATABASE_URL` (`postgres://…`): PostgreSQL instead of the data dir's SQLite file. */
  database: DatabaseSettings | undefined
  /** `CLUBCRED_ROLE`: what this process does (docs/deployment.md). */
  role: ServerRole
  /** `CLUBCRED_WEBHOOKS_ALLOW_PRIVATE=1`: webhooks may use http:// and private addresses (core/config.ts `webhooks.allowPrivate`). */
  webhooksAllowPrivate: boolean
  /** `CLUBCRED_TRUSTED_PROXIES`: peers whose `X-Forwarded-For` names the client (adapters/http/trusted-proxies.ts). */
  trustedProxies: string[]
  /** `GET /readyz` (docs/operations-metrics.md). */
  readiness: ReadinessSettings
  /** `GET /metrics` (docs/operations-metrics.md): off unless a token or a port is set. */
  metrics: MetricsSettings
  /** `CLUBCRED_LOG_LEVEL`: the least severe level logged (docs/logs.md). Default `info`. */
  logLevel: LogLevel
  /**
   * `CLUBCRED_SHUTDOWN_TIMEOUT_MS`: on SIGTERM or SIGINT, how long the process waits for requests in
   * flight and the worker's round before it gives up on them and exits 1 (docs/shutdown.md). Default 30 s.
   */
  shutdownTimeoutMs: number
}

export interface ReadinessSettings {
  /**
   * `CLUBCRED_READY_MAX_SIGNING_AGE_MS`: on a process that signs, `/readyz` answers 503 `signing-stuck`
   * once the oldest pending signing job has waited longer than this. Default 5 min: a 1,000-recipient
   * batch signs in seconds, and a failing group retries within 5 min at most (core/signing-queue).
   */
  maxSigningAgeMs: number
}

export interface MetricsSettings {
  /** `CLUBCRED_METRICS_TOKEN`: `/metrics` on the main port, for `Authorization: Bearer <token>` only. At least 16 characters. */
  token: string | undefined
  /** `CLUBCRED_METRICS_PORT`: `/metrics` without a token on this port of 127.0.0.1 (`0`: any free port). */
  port: number | undefined
}

export type { ServerRole }
export { SERVER_ROLES }

export interface DatabaseSettings {
  url: string
  /** `CLUBCRED_DATABASE_POOL_SIZE`: connections this process keeps at most. Default 10. */
  poolSize: number
  /** `CLUBCRED_DATABASE_STATEMENT_TIMEOUT_MS`: a statement (waiting for a lock included) is cancelled after this. Default 30 s. */
  statementTimeoutMs: number
  /** `CLUBCRED_DATABASE_PGBOUNCER=1`: the URL is a pooler in transaction mode (docs/deployment.md § Behind PgBouncer). Default false. */
  pgbouncer: boolean
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

export const HTTP_SERVER_DEFAULTS: HttpServerLimits = {
  headersTimeoutMs: VARIABLES.headersTimeoutMs.fallback,
  requestTimeoutMs: VARIABLES.requestTimeoutMs.fallback,
  keepAliveTimeoutMs: VARIABLES.keepAliveTimeoutMs.fallback,
  maxConnections: VARIABLES.maxConnections.fallback,
  maxHeadersCount: VARIABLES.maxHeadersCount.fallback,
}

/**
 * A configuration that cannot start: every wrong variable, each in `problems`, and all of them in the
 * message (one problem: its message alone), so that an operator fixes them in one round.
 */
export class ConfigurationError extends TypeError {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} configuration errors: ${problems.join('; ')}`)
  }
}

/**
 * The server's settings from the environment, through the table of variables (server/environment.ts).
 * Throws one `ConfigurationError` that names every wrong variable, not only the first.
 */
export function readServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const { values: v, problems } = readVariables(env)
  // Node requires it: the headers are part of the request.
  if (v.headersTimeoutMs > v.requestTimeoutMs) {
    problems.push(`CLUBCRED_HEADERS_TIMEOUT_MS (${v.headersTimeoutMs}) must not exceed CLUBCRED_REQUEST_TIMEOUT_MS (${v.requestTimeoutMs})`)
  }
  // PostgreSQL: every node must seal and open keys with the same master key, and the key must never be
  // in the database it protects; so it comes from the environment, not from a file each node would
  // generate for itself.
  if (env.CLUBCRED_DATABASE_URL && !env.CLUBCRED_MASTER_KEY) {
    problems.push('CLUBCRED_DATABASE_URL is set but CLUBCRED_MASTER_KEY is not: every node needs the same master key, and it is never stored in the database')
  }
  if (v.databasePgbouncer && !env.CLUBCRED_DATABASE_URL) {
    problems.push(
      'CLUBCRED_DATABASE_PGBOUNCER is set but CLUBCRED_DATABASE_URL is not: it says how to reach PostgreSQL, and without a URL the server uses SQLite',
    )
  }
  if (problems.length > 0) throw new ConfigurationError(problems)
  const overrides: Partial<IssuerUrls> = {}
  const set = (name: keyof IssuerUrls, value: string | undefined) => {
    if (value) overrides[name] = value
  }
  set('base', v.baseUrl)
  set('auth', v.authUrl)
  set('public', v.publicUrl)
  set('shareHost', v.shareHost)
  set('legacyBase', v.legacyBaseUrl)
  return {
    port: v.port,
    host: v.host,
    dataDir: v.dataDir,
    masterKey: v.masterKey,
    urlOverrides: overrides,
    smtpUrl: v.smtpUrl,
    mailFrom: v.mailFrom,
    signingLeaseMs: v.signingLeaseMs,
    clubCacheSize: v.clubCacheSize,
    http: {
      headersTimeoutMs: v.headersTimeoutMs,
      requestTimeoutMs: v.requestTimeoutMs,
      keepAliveTimeoutMs: v.keepAliveTimeoutMs,
      maxConnections: v.maxConnections,
      maxHeadersCount: v.maxHeadersCount,
    },
    database: v.databaseUrl
      ? { url: v.databaseUrl, poolSize: v.databasePoolSize, statementTimeoutMs: v.databaseStatementTimeoutMs, pgbouncer: v.databasePgbouncer }
      : undefined,
    role: v.role,
    webhooksAllowPrivate: v.webhooksAllowPrivate,
    trustedProxies: v.trustedProxies,
    readiness: { maxSigningAgeMs: v.readyMaxSigningAgeMs },
    metrics: { token: v.metricsToken, port: v.metricsPort },
    logLevel: v.logLevel,
    shutdownTimeoutMs: v.shutdownTimeoutMs,
  }
}

/** The issuer URLs for a server listening on `port`: the defaults (docs/decisions/0001-addresses.md) under the overrides. */
export function resolveUrls(config: ServerConfig, port: number): IssuerUrls {
  return { ...defaultUrls(port), ...config.urlOverrides }
}
