/**
 * Issuer configuration. Every option is documented here, at its default; `createIssuer` fills what the
 * caller leaves out and rejects what cannot work with a `TypeError` at start-up.
 */

/** The addresses of docs/api.md §1's placeholders. docs/decisions/0001-addresses.md gives the self-host defaults. */
export interface IssuerUrls {
  /** `{base_url}`: origin (and optional path) of the club API, e.g. `http://localhost:8787`. */
  base: string
  /** `{auth_url}`: the token endpoint is `{auth}/token`, e.g. `http://localhost:8787/oauth`. */
  auth: string
  /** `{public_url}`: the public verification surface lives under `{public}/open-badges/v3`. */
  public: string
  /**
   * `{share_url_host}`: share pages are `{scheme}://{club}.{shareHost}/credentials/{id}`, the scheme
   * being that of `public`.
   */
  shareHost: string
  /** `{legacy_base_url}`: legacy form creation is `{legacyBase}/open-api/achievements/forms`. */
  legacyBase: string
}

export interface IssuerConfig {
  urls: IssuerUrls
  /** Access token lifetime in seconds. docs/api.md §4.1 fixes it at 900. */
  accessTokenTtlSeconds: number
  /** Largest request body accepted, in bytes; larger bodies get 413 `payload-too-large`. */
  maxBodyBytes: number
  /**
   * Failed client authentications tolerated per client id within `windowSeconds`; further attempts,
   * right or wrong, get 429 with `Retry-After` until the window ends.
   */
  clientAuthFailures: { limit: number; windowSeconds: number }
  /**
   * How long a signing worker holds the jobs it claimed (ms): a worker that dies (SIGKILL, power loss)
   * leaves its jobs to another worker after this. 1 s to 2 min, default 60 s: long enough for
   * a round of 1,000 signatures on a slow machine, since a lease that ends mid-round has a second worker
   * sign the same jobs again (harmless, the store keeps one credential, but wasted work).
   */
  signingLeaseMs: number
  /** Problem documents carry `type: {problemBaseUrl}/{code}`. */
  problemBaseUrl: string
  /** What keeps certificate-file downloads from stalling the event loop every club shares (below). */
  files: FileLimits
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookLimits
  /**
   * Clubs whose keys (unsealed private keys, imported public keys) and signed status lists stay cached in
   * the process, least recently used dropped first: memory follows the clubs in use, not every club seen.
   * Default 1,000 (about 6 KB a club, docs/benchmarks/history.md § 2026-11-26: Many clubs on one deployment); a club dropped costs one unseal or signature when next used.
   */
  clubCacheSize: number
  /** The staff console at `{public_url}/admin/` (docs/admin-console.md). */
  adminConsole: AdminConsoleLimits
}

/** Lifetimes and login limits of the staff console (docs/admin-console.md § Limits). */
export interface AdminConsoleLimits {
  /** How long a setup link works, in seconds. Default 24 h. */
  setupLinkSeconds: number
  /** A session ends after this long without a request, in seconds. Default 30 minutes. */
  sessionIdleSeconds: number
  /** A session ends this long after login whatever happens, in seconds. Default 12 h. */
  sessionAbsoluteSeconds: number
  /**
   * Failed password logins tolerated per account (e-mail) and client address within `windowSeconds`;
   * then that pair gets 429 until the window ends, and the account's password logins from anywhere are
   * spaced by `accountBackoffSeconds` (decision 0042). Default 5.
   */
  failuresPerAccount: number
  /**
   * Once an account has `failuresPerAccount` failed password logins in its window (from any addresses),
   * one more is allowed per this many seconds since the window opened: guesses from many addresses stay
   * slow, and the owner waits at most this long. Passkey logins never wait for it. Default 60.
   */
  accountBackoffSeconds: number
  /** Failed logins tolerated per client address (an IPv6 client by its /64) within `windowSeconds`, passwords and passkeys apart. Default 30. */
  failuresPerAddress: number
  /** Passkey login challenges handed out per client address (an IPv6 client by its /64) within `windowSeconds`. Default 30. */
  challengesPerAddress: number
  /** Passkey login challenges kept in storage at most; past it, the ones that expire first are dropped. Default 10,000. */
  challengesKept: number
  /** The fixed window the counts run in, in seconds. Default 15 minutes. */
  windowSeconds: number
}

export interface WebhookLimits {
  /**
   * Allows `http://` URLs and addresses that are loopback, private, link-local or metadata (a LAN, tests;
   * the server's `CLUBCRED_WEBHOOKS_ALLOW_PRIVATE=1`). Default `false`: endpoints must be public `https://`.
   */
  allowPrivate: boolean
  /** Deliveries in flight to one endpoint at most, over every worker: a slow receiver holds only these. Default 4. */
  concurrencyPerEndpoint: number
  /**
   * Deliveries in flight for one club at most, over all its endpoints and every worker. Default 32, half
   * of a sender's 64 slots: a club whose receivers never answer leaves the other half to every other
   * club; when several such clubs hold every slot, free slots go to the club with the fewest in flight
   * (docs/webhooks.md § Several workers, slow receivers).
   */
  concurrencyPerClub: number
  /** An attempt's connection must open within this (ms). Default 10 s. */
  connectTimeoutMs: number
  /** An attempt, connection to response headers, within this (ms); the issue caps it at 30 s. Default 30 s. */
  timeoutMs: number
}

/**
 * Certificate files (`GET .../issuances/{id}/file`, docs/api.md §4.6): rendered PDFs and baked badges. Every club
 * shares one event loop, so no club's downloads may hold it: files are kept once rendered, PDFs render a
 * few at a time, and each club has a download rate (docs/decisions/0029-no-request-stalls-every-club.md).
 */
export interface FileLimits {
  /**
   * Rendered files kept in memory by their strong ETag, at most this many bytes in all, the least recently
   * used forgotten first; `0` keeps none. A certificate PDF is about 20 KB and a baked badge 5 to 260 KB,
   * so the default 32 MiB keeps about a thousand files.
   */
  cacheBytes: number
  /**
   * Certificate PDFs rendered at once. pdf-lib lays pages out on the event loop, so more at once only
   * makes each slower and holds their memory together. Default 2.
   */
  renderConcurrency: number
  /**
   * PDFs waiting for a turn beyond those; one more is refused at once with 503 `server-busy` and
   * `Retry-After: 1`, so that a burst cannot build a backlog that takes minutes to clear. Default 32.
   */
  renderQueue: number
  /**
   * File requests per club, as a token bucket: `burst` at once, then `perSecond` (every request counts,
   * 304s and refusals included, after authentication). More is 429 `rate-limited` with `Retry-After`.
   * The default, 60 at once then 5 a second, lets a dashboard show a page of badges at once and a club
   * export a thousand certificates in under four minutes, while one club can take at most 5 PDF renders
   * a second of the shared loop. `null` removes the limit (an embedder that renders in bulk in-process).
   */
  downloadsPerClub: { burst: number; perSecond: number } | null
}

/** What `createIssuer` accepts: the configuration with every option but `urls` optional, `files` member by member. */
export type IssuerConfigInput = { urls: IssuerUrls } & Partial<Omit<IssuerConfig, 'urls' | 'files' | 'webhooks' | 'adminConsole'>> & {
    files?: Partial<FileLimits>
    webhooks?: Partial<WebhookLimits>
    adminConsole?: Partial<AdminConsoleLimits>
  }

export const DEFAULTS = {
  accessTokenTtlSeconds: 900,
  maxBodyBytes: 1024 * 1024,
  clientAuthFailures: { limit: 10, windowSeconds: 60 },
  signingLeaseMs: 60_000,
  problemBaseUrl: 'https://clubcred.dev/problems',
  files: { cacheBytes: 32 * 1024 * 1024, renderConcurrency: 2, renderQueue: 32, downloadsPerClub: { burst: 60, perSecond: 5 } },
  webhooks: { allowPrivate: false, concurrencyPerEndpoint: 4, concurrencyPerClub: 32, connectTimeoutMs: 10_000, timeoutMs: 30_000 },
  clubCacheSize: 1000,
  adminConsole: {
    setupLinkSeconds: 24 * 3600,
    sessionIdleSeconds: 30 * 60,
    sessionAbsoluteSeconds: 12 * 3600,
    failuresPerAccount: 5,
    accountBackoffSeconds: 60,
    failuresPerAddress: 30,
    challengesPerAddress: 30,
    challengesKept: 10_000,
    windowSeconds: 15 * 60,
  },
} as const satisfies Omit<IssuerConfig, 'urls'>

/** The bounds of `signingLeaseMs` (ms), shared with the server's `CLUBCRED_SIGNING_LEASE_MS`. */
export const SIGNING_LEASE_RANGE = { min: 1000, max: 120_000 } as const

/** Self-host URL defaults for a server on `port` (docs/decisions/0001-addresses.md). */
export function defaultUrls(port: number, host = 'localhost'): IssuerUrls {
  const origin = `http://${host}:${port}`
  return { base: origin, auth: `${origin}/oauth`, public: origin, shareHost: `${host}:${port}`, legacyBase: origin }
}

/** Fills defaults and checks that every URL parses. Throws `TypeError` on misuse. */
export function resolveConfig(input: IssuerConfigInput): IssuerConfig {
  if (!input || typeof input !== 'object' || !input.urls) throw new TypeError('createIssuer: `urls` is required')
  const urls = { ...input.urls }
  for (const name of ['base', 'auth', 'public', 'legacyBase'] as const) {
    const value = urls[name]
    if (typeof value !== 'string' || !URL.canParse(value)) {
      throw new TypeError(`createIssuer: urls.${name} must be an absolute URL, got ${JSON.stringify(value)}`)
    }
    urls[name] = value.replace(/\/+$/, '')
  }
  if (typeof urls.shareHost !== 'string' || !/^[a-z0-9.-]+(:\d+)?$/i.test(urls.shareHost)) {
    throw new TypeError(`createIssuer: urls.shareHost must be a host[:port], got ${JSON.stringify(urls.shareHost)}`)
  }
  const config: IssuerConfig = {
    urls,
    accessTokenTtlSeconds: input.accessTokenTtlSeconds ?? DEFAULTS.accessTokenTtlSeconds,
    maxBodyBytes: input.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    clientAuthFailures: input.clientAuthFailures ?? DEFAULTS.clientAuthFailures,
    signingLeaseMs: input.signingLeaseMs ?? DEFAULTS.signingLeaseMs,
    problemBaseUrl: (input.problemBaseUrl ?? DEFAULTS.problemBaseUrl).replace(/\/+$/, ''),
    files: resolveFileLimits(input.files),
    webhooks: { ...DEFAULTS.webhooks, ...input.webhooks },
    clubCacheSize: input.clubCacheSize ?? DEFAULTS.clubCacheSize,
    adminConsole: { ...DEFAULTS.adminConsole, ...input.adminConsole },
  }
  for (const [name, value] of Object.entries(config.adminConsole)) {
    if (!Number.isInteger(value) || value < 1) throw new TypeError(`createIssuer: adminConsole.${name} must be a positive integer`)
  }
  if (!Number.isInteger(config.clubCacheSize) || config.clubCacheSize < 1) {
    throw new TypeError('createIssuer: clubCacheSize must be a positive integer')
  }
  const { concurrencyPerEndpoint, concurrencyPerClub, timeoutMs, connectTimeoutMs } = config.webhooks
  if (!Number.isInteger(concurrencyPerEndpoint) || concurrencyPerEndpoint < 1)
    throw new TypeError('createIssuer: webhooks.concurrencyPerEndpoint must be a positive integer')
  if (!Number.isInteger(concurrencyPerClub) || concurrencyPerClub < 1)
    throw new TypeError('createIssuer: webhooks.concurrencyPerClub must be a positive integer')
  if (!(timeoutMs > 0 && timeoutMs <= 30_000 && connectTimeoutMs > 0 && connectTimeoutMs <= timeoutMs)) {
    throw new TypeError('createIssuer: webhooks.timeoutMs must be at most 30 s, and connectTimeoutMs at most timeoutMs')
  }
  if (!Number.isInteger(config.maxBodyBytes) || config.maxBodyBytes < 1024) {
    throw new TypeError('createIssuer: maxBodyBytes must be an integer of at least 1024')
  }
  if (!isSigningLease(config.signingLeaseMs)) {
    throw new TypeError(`createIssuer: signingLeaseMs must be an integer from ${SIGNING_LEASE_RANGE.min} to ${SIGNING_LEASE_RANGE.max}`)
  }
  return config
}

/** Whether `value` is a signing lease within `SIGNING_LEASE_RANGE`. */
export function isSigningLease(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= SIGNING_LEASE_RANGE.min && (value as number) <= SIGNING_LEASE_RANGE.max
}

function resolveFileLimits(input: Partial<FileLimits> = {}): FileLimits {
  const files = { ...DEFAULTS.files, ...input }
  const count = (name: string, value: unknown, min: number) => {
    if (!Number.isInteger(value) || (value as number) < min) throw new TypeError(`createIssuer: files.${name} must be an integer of at least ${min}`)
  }
  count('cacheBytes', files.cacheBytes, 0)
  count('renderConcurrency', files.renderConcurrency, 1)
  count('renderQueue', files.renderQueue, 0)
  if (files.downloadsPerClub !== null) {
    const { burst, perSecond } = files.downloadsPerClub ?? {}
    count('downloadsPerClub.burst', burst, 1)
    if (typeof perSecond !== 'number' || !(perSecond > 0) || !Number.isFinite(perSecond)) {
      throw new TypeError('createIssuer: files.downloadsPerClub.perSecond must be a number above 0')
    }
  }
  return { ...files, downloadsPerClub: files.downloadsPerClub && { ...files.downloadsPerClub } }
}
