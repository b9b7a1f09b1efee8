/**
 * Issuer configuration. Every option is documented here, at its default; `createIssuer` fills what the
 * caller leaves out and rejects what cannot work with a `TypeError` at start-up.
 */

/** The addresses of interface-spec's placeholders. DESIGN §3 gives the self-host defaults. */
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
  /** Access token lifetime in seconds. interface-spec §4.1 fixes it at 900. */
  accessTokenTtlSeconds: number
  /** Largest request body accepted, in bytes; larger bodies get 413 `payload-too-large`. */
  maxBodyBytes: number
  /**
   * Failed client authentications tolerated per client id within `windowSeconds`; further attempts,
   * right or wrong, get 429 with `Retry-After` until the window ends.
   */
  clientAuthFailures: { limit: number; windowSeconds: number }
  /** Problem documents carry `type: {problemBaseUrl}/{code}`. */
  problemBaseUrl: string
}

export const DEFAULTS = {
  accessTokenTtlSeconds: 900,
  maxBodyBytes: 1024 * 1024,
  clientAuthFailures: { limit: 10, windowSeconds: 60 },
  problemBaseUrl: 'https://clubcred.dev/problems',
} as const satisfies Omit<IssuerConfig, 'urls'>

/** Self-host URL defaults for a server on `port` (DESIGN §3). */
export function defaultUrls(port: number, host = 'localhost'): IssuerUrls {
  const origin = `http://${host}:${port}`
  return { base: origin, auth: `${origin}/oauth`, public: origin, shareHost: `${host}:${port}`, legacyBase: origin }
}

/** Fills defaults and checks that every URL parses. Throws `TypeError` on misuse. */
export function resolveConfig(input: { urls: IssuerUrls } & Partial<Omit<IssuerConfig, 'urls'>>): IssuerConfig {
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
    problemBaseUrl: (input.problemBaseUrl ?? DEFAULTS.problemBaseUrl).replace(/\/+$/, ''),
  }
  if (!Number.isInteger(config.maxBodyBytes) || config.maxBodyBytes < 1024) {
    throw new TypeError('createIssuer: maxBodyBytes must be an integer of at least 1024')
  }
  return config
}
