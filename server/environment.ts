import process from 'node:process'
import { DEFAULTS, isSigningLease, SIGNING_LEASE_RANGE } from '../core/config.ts'
import { isMasterKeyText, MASTER_KEY_FORMAT } from './master-key.ts'
import { LOG_LEVELS, type LogLevel } from './log.ts'
import { parseProxyEntry } from '../adapters/http/trusted-proxies.ts'

/**
 * Every environment variable the server and the admin CLI read, in one table (docs/install.md § Configuration):
 * its name, its default as an operator reads it, what it does, and the parser that turns
 * its text into a value or says what is wrong. `readServerConfig` (server/config.ts) reads through it,
 * `clubcred serve --help` prints it, and docs/install.md holds it as `variablesMarkdown()` renders it
 * (test/server/environment.test.ts). A new variable is one more row here.
 */
export interface Variable<T> {
  name: string
  /** The value when the variable is unset or empty. */
  fallback: T
  /** The default as an operator reads it, or `unset`. */
  shown: string
  description: string
  /** Its value is never echoed in an error message: it holds a key or a password. */
  secret?: boolean
  /** The text (never empty) to its value; throws a `TypeError` whose message completes "NAME …". */
  parse(text: string): T
}

const variable = <T>(row: Variable<T>): Variable<T> => row

/** Completes "NAME …" in a configuration error. */
const wrong = (what: string): never => {
  throw new TypeError(what)
}

const text = (value: string): string => value

const positiveInteger = (value: string): number => (/^[1-9][0-9]*$/.test(value) ? Number(value) : wrong('must be a positive integer'))

const flag = (value: string): boolean => (value === '1' ? true : value === '0' ? false : wrong('must be 1 or 0'))

const httpUrl = (value: string): string => {
  const url = URL.canParse(value) ? new URL(value) : undefined
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? value : wrong('must be an absolute http:// or https:// URL')
}

const portNumber = (value: string): number => {
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN
  return port >= 0 && port <= 65535 ? port : wrong('must be a port number')
}

const METRICS_TOKEN_MIN_LENGTH = 16

const positive = (name: string, fallback: number, description: string) =>
  variable({ name, fallback, shown: String(fallback), description, parse: positiveInteger })

/**
 * `all` serves HTTP and runs the worker; `api` serves HTTP only (it queues, another process signs);
 * `worker` signs, mails and keeps house, and listens only for `/healthz`, `/readyz` and `/metrics`.
 */
export type ServerRole = 'all' | 'api' | 'worker'
export const SERVER_ROLES: readonly ServerRole[] = ['all', 'api', 'worker']

export const VARIABLES = {
  port: variable({
    name: 'PORT',
    fallback: 8787,
    shown: '8787',
    description: 'port (`0` picks a free one; the URLs below follow it)',
    parse: portNumber,
  }),
  host: variable({ name: 'HOST', fallback: '127.0.0.1', shown: '127.0.0.1', description: 'interface to listen on', parse: text }),
  dataDir: variable({ name: 'CLUBCRED_DATA_DIR', fallback: './data', shown: './data', description: 'SQLite file, master key file', parse: text }),
  masterKey: variable<string | undefined>({
    name: 'CLUBCRED_MASTER_KEY',
    fallback: undefined,
    shown: 'generated into `<data dir>/master.key` (mode 0600)',
    description: `32 bytes (${MASTER_KEY_FORMAT}) that encrypt private keys at rest; required with \`CLUBCRED_DATABASE_URL\``,
    secret: true,
    parse: (value) => (isMasterKeyText(value) ? value : wrong(`must be 32 bytes, as ${MASTER_KEY_FORMAT}`)),
  }),
  databaseUrl: variable<string | undefined>({
    name: 'CLUBCRED_DATABASE_URL',
    fallback: undefined,
    shown: 'unset',
    description:
      '`postgres://user:pass@host:5432/db`: PostgreSQL (14 or newer) instead of the SQLite file, for several nodes on one database (docs/deployment.md)',
    secret: true,
    parse: (value) => (/^postgres(ql)?:\/\//.test(value) ? value : wrong('must be a postgres:// or postgresql:// URL')),
  }),
  databasePoolSize: positive('CLUBCRED_DATABASE_POOL_SIZE', 10, 'PostgreSQL connections this process keeps at most'),
  databaseStatementTimeoutMs: positive(
    'CLUBCRED_DATABASE_STATEMENT_TIMEOUT_MS',
    30_000,
    'a PostgreSQL statement (its lock wait included) is cancelled after this; the request answers 503 `storage-unavailable`',
  ),
  databasePgbouncer: variable({
    name: 'CLUBCRED_DATABASE_PGBOUNCER',
    fallback: false,
    shown: 'unset',
    description:
      "`1`: `CLUBCRED_DATABASE_URL` is PgBouncer (or another pooler) in transaction mode: no named prepared statements, no session settings; the role's `search_path` must find the schema `clubcred` (docs/deployment.md § Behind PgBouncer)",
    parse: flag,
  }),
  role: variable<ServerRole>({
    name: 'CLUBCRED_ROLE',
    fallback: 'all',
    shown: 'all',
    description: '`all` (HTTP and worker), `api` (HTTP only) or `worker` (signing, mail, housekeeping; serves `/healthz`, `/readyz` and `/metrics` only)',
    parse: (value) => ((SERVER_ROLES as readonly string[]).includes(value) ? (value as ServerRole) : wrong(`must be one of ${SERVER_ROLES.join(', ')}`)),
  }),
  baseUrl: variable<string | undefined>({
    name: 'CLUBCRED_BASE_URL',
    fallback: undefined,
    shown: 'http://localhost:$PORT',
    description: 'the club API (`{base_url}`)',
    parse: httpUrl,
  }),
  authUrl: variable<string | undefined>({
    name: 'CLUBCRED_AUTH_URL',
    fallback: undefined,
    shown: 'http://localhost:$PORT/oauth',
    description: 'token endpoint at `{auth_url}/token`',
    parse: httpUrl,
  }),
  publicUrl: variable<string | undefined>({
    name: 'CLUBCRED_PUBLIC_URL',
    fallback: undefined,
    shown: 'http://localhost:$PORT',
    description: 'public verification surface',
    parse: httpUrl,
  }),
  shareHost: variable<string | undefined>({
    name: 'CLUBCRED_SHARE_HOST',
    fallback: undefined,
    shown: 'localhost:$PORT',
    description: 'share pages at `http://{club}.{share host}/credentials/{id}`',
    // A host with an optional port, nothing else: it is put after `{club}.` in a URL.
    parse: (value) => (/^[A-Za-z0-9.-]+(:[0-9]{1,5})?$/.test(value) ? value : wrong('must be a host name with an optional :port')),
  }),
  legacyBaseUrl: variable<string | undefined>({
    name: 'CLUBCRED_LEGACY_BASE_URL',
    fallback: undefined,
    shown: 'http://localhost:$PORT',
    description: 'legacy form creation',
    parse: httpUrl,
  }),
  smtpUrl: variable<string | undefined>({
    name: 'CLUBCRED_SMTP_URL',
    fallback: undefined,
    shown: 'unset',
    description: '`smtp://user:pass@host:port` sends recipient mail; unset, mail waits in the `outbox` table',
    secret: true,
    parse: (value) => (/^smtps?:\/\/[^/]/.test(value) && URL.canParse(value) ? value : wrong('must be an smtp:// or smtps:// URL')),
  }),
  mailFrom: variable<string | undefined>({
    name: 'CLUBCRED_MAIL_FROM',
    fallback: undefined,
    shown: 'clubcred <no-reply@{smtp host}>',
    description: 'the From of recipient mail',
    parse: text,
  }),
  webhooksAllowPrivate: variable({
    name: 'CLUBCRED_WEBHOOKS_ALLOW_PRIVATE',
    fallback: false,
    shown: 'unset',
    description:
      '`1` lets webhook URLs use `http://` and private, loopback or link-local addresses (a LAN, tests); otherwise they must be `https://` on public addresses (docs/webhooks.md)',
    parse: flag,
  }),
  trustedProxies: variable<string[]>({
    name: 'CLUBCRED_TRUSTED_PROXIES',
    fallback: [],
    shown: 'unset',
    description:
      "comma-separated addresses or CIDR blocks of your reverse proxies (`127.0.0.1,10.0.0.0/8`): for a request from one of them the client address is read from `X-Forwarded-For` (the console's per-address login limit, docs/admin-console.md § Limits); unset, the TCP peer is the client",
    parse: (value) => {
      const entries = value.split(',').map((entry) => entry.trim())
      const bad = entries.find((entry) => parseProxyEntry(entry) === null)
      return bad === undefined ? entries : wrong(`has ${JSON.stringify(bad)}, which is not an IP address or CIDR block`)
    },
  }),
  signingLeaseMs: variable({
    name: 'CLUBCRED_SIGNING_LEASE_MS',
    fallback: 60_000,
    shown: '60000',
    description: `how long a signing worker holds the jobs it claimed (${SIGNING_LEASE_RANGE.min} to ${SIGNING_LEASE_RANGE.max}); a worker that dies leaves them to another after this`,
    parse: (value) => {
      const lease = /^[0-9]+$/.test(value) ? Number(value) : NaN
      return isSigningLease(lease) ? lease : wrong(`must be an integer from ${SIGNING_LEASE_RANGE.min} to ${SIGNING_LEASE_RANGE.max} (ms)`)
    },
  }),
  clubCacheSize: positive(
    'CLUBCRED_CLUB_CACHE_SIZE',
    DEFAULTS.clubCacheSize,
    'clubs whose keys and signed status lists this process keeps in memory, the least recently used dropped first (about 6 KB a club); a club dropped costs one key unseal or status-list signature when next used (docs/deployment.md)',
  ),
  readyMaxSigningAgeMs: positive(
    'CLUBCRED_READY_MAX_SIGNING_AGE_MS',
    300_000,
    '`/readyz` answers 503 `signing-stuck` on an `all` or `worker` process once the oldest pending signing job waited longer (docs/operations-metrics.md)',
  ),
  metricsToken: variable<string | undefined>({
    name: 'CLUBCRED_METRICS_TOKEN',
    fallback: undefined,
    shown: 'unset',
    description: `\`GET /metrics\` on the main port for \`Authorization: Bearer <token>\` (at least ${METRICS_TOKEN_MIN_LENGTH} characters); unset and without a metrics port, \`/metrics\` is 404`,
    secret: true,
    parse: (value) =>
      value.length >= METRICS_TOKEN_MIN_LENGTH && !/\s/.test(value) ? value : wrong(`must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces`),
  }),
  metricsPort: variable<number | undefined>({
    name: 'CLUBCRED_METRICS_PORT',
    fallback: undefined,
    shown: 'unset',
    description: '`GET /metrics` without a token on this port of 127.0.0.1 (`0`: a free one)',
    parse: portNumber,
  }),
  logLevel: variable<LogLevel>({
    name: 'CLUBCRED_LOG_LEVEL',
    fallback: 'info',
    shown: 'info',
    description: `the least severe level of the JSON log on stdout (${LOG_LEVELS.join(', ')}); one line per request (docs/logs.md)`,
    parse: (value) => ((LOG_LEVELS as readonly string[]).includes(value) ? (value as LogLevel) : wrong(`must be one of ${LOG_LEVELS.join(', ')}`)),
  }),
  // Kubernetes' default grace period is 30 s too: a drain that fits in it ends before the SIGKILL.
  shutdownTimeoutMs: positive(
    'CLUBCRED_SHUTDOWN_TIMEOUT_MS',
    30_000,
    "on SIGTERM or SIGINT, how long the process waits for requests in flight and the worker's round before it cuts them off and exits 1; a second signal exits at once (docs/shutdown.md)",
  ),
  headersTimeoutMs: positive(
    'CLUBCRED_HEADERS_TIMEOUT_MS',
    10_000,
    'request line and headers must arrive within this, else 408 and the socket closes (slowloris)',
  ),
  requestTimeoutMs: positive('CLUBCRED_REQUEST_TIMEOUT_MS', 60_000, 'the whole request, body included (at most 1 MiB)'),
  keepAliveTimeoutMs: positive('CLUBCRED_KEEP_ALIVE_TIMEOUT_MS', 5_000, 'an idle keep-alive socket is closed after this'),
  maxConnections: positive('CLUBCRED_MAX_CONNECTIONS', 512, 'open sockets at most; more are closed at once'),
  maxHeadersCount: positive('CLUBCRED_MAX_HEADERS_COUNT', 100, 'header lines read per request at most'),
} satisfies Record<string, Variable<unknown>>

export type VariableKey = keyof typeof VARIABLES
export type Values = { [K in VariableKey]: (typeof VARIABLES)[K]['fallback'] }

const ROWS: readonly Variable<unknown>[] = Object.values(VARIABLES)

/**
 * Every variable read through the table: the values, and one message per variable that is wrong (all
 * of them, not the first). A secret's value is never quoted.
 */
export function readVariables(env: Record<string, string | undefined>): { values: Values; problems: string[] } {
  const problems: string[] = []
  const values = {} as Record<string, unknown>
  for (const [key, row] of Object.entries(VARIABLES) as [VariableKey, Variable<unknown>][]) {
    const raw = env[row.name]
    values[key] = row.fallback
    if (raw === undefined || raw === '') continue
    try {
      values[key] = row.parse(raw)
    } catch (error) {
      problems.push(`${row.name} ${(error as Error).message}${row.secret ? '' : `, got ${raw}`}`)
    }
  }
  return { values: values as Values, problems }
}

/**
 * A `CLUBCRED_*` variable the table does not know is most likely a typo of one it does, which would
 * otherwise be silently ignored: one warning each, with the closest known name. Not an error: a
 * variable of a newer or older clubcred must not stop a start (docs/install.md § The configuration check).
 */
export function unknownVariableWarnings(env: Record<string, string | undefined>): string[] {
  const known = ROWS.map((row) => row.name)
  return Object.keys(env)
    .filter((name) => name.startsWith('CLUBCRED_') && !known.includes(name))
    .sort()
    .map((name) => {
      const closest = known.map((candidate) => ({ candidate, distance: editDistance(name, candidate) })).sort((a, b) => a.distance - b.distance)[0]!
      const hint = closest.distance <= 3 ? ` (did you mean ${closest.candidate}?)` : ''
      return `${name} is not a clubcred variable and is ignored${hint}`
    })
}

/** Prints `unknownVariableWarnings(env)` to stderr, one `clubcred: warning:` line each (the server entries and the CLI). */
export function warnOfUnknownVariables(env: Record<string, string | undefined>, stderr: { write(text: string): unknown } = process.stderr): void {
  for (const warning of unknownVariableWarnings(env)) stderr.write(`clubcred: warning: ${warning}\n`)
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

/** The table for `clubcred serve --help`: name and default on one line, the description under it. */
export function variablesHelp(): string {
  const plain = (value: string) => value.replaceAll('`', '')
  return ROWS.map((row) => `  ${row.name}  (default: ${plain(row.shown)})\n      ${plain(row.description)}`).join('\n')
}

/** The table as the Markdown that docs/install.md holds between its `variables` markers. */
export function variablesMarkdown(): string {
  const cell = (value: string) => value.replaceAll('|', '\\|')
  const shown = (value: string) => (value === 'unset' || value.includes('`') ? value : `\`${value}\``)
  return [
    '| variable | default | meaning |',
    '| --- | --- | --- |',
    ...ROWS.map((row) => `| \`${row.name}\` | ${cell(shown(row.shown))} | ${cell(row.description)} |`),
  ].join('\n')
}
