import { paginate } from './paginate.ts'
import { createTokenSource, type FetchLike } from './token-source.ts'
import { createTransport } from './transport.ts'
import { waitForCredentials, type WaitOptions } from './wait-for-credentials.ts'
import type {
  Achievement,
  AchievementCreate,
  AchievementPatch,
  BatchResult,
  BulkReissueBody,
  BulkReissueResult,
  CertificateFile,
  Club,
  ClubEvent,
  CredentialRead,
  Design,
  DesignCreate,
  DesignPatch,
  FileFormat,
  Issuance,
  IssuanceDetail,
  IssueBody,
  IssueResult,
  Page,
  ReissueBody,
  RevokeManyResult,
  ScopeName,
  Verdict,
} from './types.ts'

/** The server's answer of a bulk revoke, before the client adds what it knows of the exchange. */
type CoreRevokeManyAnswer = Omit<RevokeManyResult, 'idempotencyKey' | 'replayed'>

/** Options of {@link createClubcredClient}. */
export interface ClubcredClientOptions {
  /** `{base_url}` of the club API, for example `http://localhost:8787`. */
  baseUrl: string
  /** `{auth_url}`; tokens come from `{authUrl}/token`. Default: `{baseUrl}/oauth` (docs/decisions/0001-addresses.md). */
  authUrl?: string
  /** `{public_url}` of the verification surface. Default: `baseUrl`. */
  publicUrl?: string
  /** The API client's id and secret (docs/api.md §2.2). */
  clientId: string
  clientSecret: string
  /** The club domain the client is bound to: `{clubDomain}` in every path. */
  club: string
  /** Scope names to request (sent as `svc:openapi:<name>`). Default: every scope the client holds. */
  scopes?: readonly ScopeName[]
  /** The fetch to send requests with. Default: the global `fetch`. An issuer's `issuer.fetch` fits too. */
  fetch?: FetchLike
  /** The time source for token expiry, in ms since the epoch. Default: `Date.now`. */
  clock?: (() => number) | { now(): number }
  /** Refresh a token when less than this is left of it (at most half its life). Default 60,000 (60 s). */
  refreshMarginMs?: number
}

/** `limit` (1..100, server default 20) and `cursor` (from `meta.nextCursor`) of one page. */
export interface ListOptions {
  limit?: number
  cursor?: string | null
}

/** One page of the issuance list, optionally of one template. */
export interface IssuanceListOptions extends ListOptions {
  achievementId?: number
}

/** Options of the `all()` iterators. */
export interface IterateOptions {
  /** Items per page request, 1..100. Default 100. */
  pageSize?: number
}

/** Options of a keyed write. */
export interface IdempotencyOptions {
  /**
   * The `Idempotency-Key` (1..255 printable ASCII). Default: a fresh `crypto.randomUUID()` per call,
   * reused on the client's own retry. Pass your own to make a repeat across restarts a replay.
   */
  idempotencyKey?: string
}

/** Options of a revoke. */
export interface RevokeOptions extends IdempotencyOptions {
  /** Why it is revoked; kept with the issuance. */
  reason?: string
}

/** A typed client of one club of a clubcred server. Every method rejects with a `ClubcredError` on a problem. */
export interface ClubcredClient {
  /** The club root (docs/api.md §4.2). */
  club(): Promise<Club>
  /** Achievement templates (docs/api.md §4.10). */
  achievements: {
    list(options?: ListOptions): Promise<Page<Achievement>>
    /** Every template, newest first, following the cursor. */
    all(options?: IterateOptions): AsyncGenerator<Achievement, void, undefined>
    get(id: number): Promise<Achievement>
    /** Creates a template; answers it as saved, derived fields included. */
    create(body: AchievementCreate): Promise<Achievement>
    patch(id: number, body: AchievementPatch): Promise<Achievement>
  }
  /** Badge and certificate designs. */
  designs: {
    list(options?: ListOptions): Promise<Page<Design>>
    all(options?: IterateOptions): AsyncGenerator<Design, void, undefined>
    get(id: number): Promise<Design>
    create(body: DesignCreate): Promise<Design>
    patch(id: number, body: DesignPatch): Promise<Design>
  }
  issuances: {
    /**
     * Issues a template to up to 1,000 recipients (docs/api.md §4.3). Always sends an `Idempotency-Key`: yours
     * or a fresh UUID, the same on the client's own retry of a lost response, so a retry never issues twice.
     */
    issue(body: IssueBody, options?: IdempotencyOptions): Promise<IssueResult>
    list(options?: IssuanceListOptions): Promise<Page<Issuance>>
    /** Every issuance (optionally of one template), newest first, following the cursor. */
    all(options?: IterateOptions & { achievementId?: number }): AsyncGenerator<Issuance, void, undefined>
    get(id: number | string): Promise<IssuanceDetail>
    /** The signed credential (docs/api.md §4.8); 409 `credential-pending` before it exists: see `waitForCredential`. */
    credential(id: number | string): Promise<CredentialRead>
    /**
     * The certificate file (docs/api.md §4.6): `pdf` (when the server has a renderer), or the badge image baked
     * with the credential (`png`, `svg`). 409 `credential-pending` before the credential exists.
     */
    file(id: number | string, options: { format: FileFormat }): Promise<CertificateFile>
    /** Revokes (docs/api.md §4.7); idempotent, with an automatic `Idempotency-Key` like `issue`. Answers the detail. */
    revoke(id: number | string, options?: RevokeOptions): Promise<IssuanceDetail>
    /**
     * Reissues (docs/api.md §4.17): a new version for the same recipient, or a new issuance for another; with an
     * automatic `Idempotency-Key` like `issue`. Answers the detail of the issuance that holds the credential now.
     */
    reissue(id: number | string, body?: ReissueBody, options?: IdempotencyOptions): Promise<IssuanceDetail>
    /** Reissues up to 1,000 issuances with the same values (a renewal), with an automatic `Idempotency-Key`. */
    reissueMany(body: BulkReissueBody, options?: IdempotencyOptions): Promise<BulkReissueResult>
    /** Revokes up to 1,000 issuances in one unit (docs/api.md §4.7b), with an automatic `Idempotency-Key` like `issue`. */
    revokeMany(issuanceIds: readonly number[], options?: RevokeOptions): Promise<RevokeManyResult>
    /**
     * Mails the recipient again (docs/api.md §4.7a); at most 3 times in 24 hours, then 429 `rate-limited`.
     * Never retried by the client on a lost response: a retry could be a fourth mail.
     */
    notify(id: number | string): Promise<IssuanceDetail>
  }
  /** The event feed (docs/api.md §4.9, §6), newest first. */
  events: {
    list(options?: ListOptions): Promise<Page<ClubEvent>>
    all(options?: IterateOptions): AsyncGenerator<ClubEvent, void, undefined>
  }
  /** The public verdict of an issuance's credential (docs/api.md §4.11), without a token; `statusCode` 404 when there is none. */
  verify(issuanceId: number | string): Promise<Verdict>
  /**
   * Waits for the `issuance.credential_issued` event of an issuance by following the event feed (never
   * by polling the credential), then reads the credential. Rejects with `ClubcredTimeoutError` after `timeoutMs`.
   */
  waitForCredential(issuanceId: number | string, options?: WaitOptions): Promise<CredentialRead>
  /** `waitForCredential` for many issuances at once: one read of the feed per poll for all of them. Results in input order. */
  waitForCredentials(issuanceIds: readonly (number | string)[], options?: WaitOptions): Promise<CredentialRead[]>
  /** A current access token, for calls this client does not wrap. */
  accessToken(): Promise<string>
}

/**
 * Creates a typed client of one club. Tokens are fetched with the client credentials grant when first
 * needed, shared by concurrent calls, refreshed before they expire, and fetched afresh once if the
 * server refuses one (401 `invalid-token`).
 *
 * @example
 * import { createClubcredClient, isProblem } from 'clubcred/client'
 *
 * const client = createClubcredClient({
 *   baseUrl: 'http://localhost:8787',
 *   clientId: process.env.CLUBCRED_CLIENT_ID!,
 *   clientSecret: process.env.CLUBCRED_CLIENT_SECRET!,
 *   club: 'demo',
 * })
 * const template = await client.achievements.create({ name: 'Opening theory', description: 'Knows 20 openings.' })
 * const batch = await client.issuances.issue({
 *   achievementFormId: template.id,
 *   recipients: [{ externalUserId: 'u-1', name: 'Kim Min-jun', email: 'minjun@example.org' }],
 * })
 * const ids = batch.results.flatMap((item) => (item.status === 'issued' ? [item.resourceId] : []))
 * const credentials = await client.waitForCredentials(ids, { timeoutMs: 30_000 })
 * for await (const issuance of client.issuances.all({ achievementId: template.id })) console.log(issuance.id)
 */
export function createClubcredClient(options: ClubcredClientOptions): ClubcredClient {
  if (!options || typeof options !== 'object') throw new TypeError('createClubcredClient: options are required')
  for (const name of ['baseUrl', 'clientId', 'clientSecret', 'club'] as const) {
    if (typeof options[name] !== 'string' || options[name] === '') {
      throw new TypeError(`createClubcredClient: \`${name}\` must be a non-empty string`)
    }
  }
  const baseUrl = trimSlashes(options.baseUrl)
  const authUrl = trimSlashes(options.authUrl ?? `${baseUrl}/oauth`)
  const publicUrl = trimSlashes(options.publicUrl ?? baseUrl)
  const fetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request))
  const clock = options.clock
  const now = clock === undefined ? () => Date.now() : typeof clock === 'function' ? clock : () => clock.now()
  const tokens = createTokenSource({
    tokenUrl: `${authUrl}/token`,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scopes: options.scopes,
    fetch,
    now,
    refreshMarginMs: options.refreshMarginMs ?? 60_000,
  })
  const call = createTransport({ fetch, tokens, sleep })
  const clubPath = `${baseUrl}/v2/clubs/${encodeURIComponent(options.club)}`
  const path = (...segments: (string | number)[]) => `${clubPath}/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`

  const read = async <T>(url: string): Promise<T> => (await call<T>({ method: 'GET', url, auth: true, retryOnNetworkError: true })).body
  const readData = async <T>(url: string): Promise<T> => (await read<{ data: T }>(url)).data
  const write = async <T>(method: 'POST' | 'PATCH', url: string, body: unknown): Promise<T> =>
    (await call<{ data: T }>({ method, url, body, auth: true, retryOnNetworkError: false })).body.data

  const achievements: ClubcredClient['achievements'] = {
    list: (query = {}) => read(withQuery(path('achievements'), query)),
    all: ({ pageSize = 100 } = {}) => paginate((cursor) => achievements.list({ limit: pageSize, cursor })),
    get: (id) => readData(path('achievements', id)),
    create: (body) => write('POST', path('achievements'), body),
    patch: (id, body) => write('PATCH', path('achievements', id), body),
  }

  const designs: ClubcredClient['designs'] = {
    list: (query = {}) => read(withQuery(path('designs'), query)),
    all: ({ pageSize = 100 } = {}) => paginate((cursor) => designs.list({ limit: pageSize, cursor })),
    get: (id) => readData(path('designs', id)),
    create: (body) => write('POST', path('designs'), body),
    patch: (id, body) => write('PATCH', path('designs', id), body),
  }

  const issuances: ClubcredClient['issuances'] = {
    async issue(body, { idempotencyKey = crypto.randomUUID() } = {}) {
      const response = await call<BatchResult>({ method: 'POST', url: path('issuances'), body, auth: true, idempotencyKey, retryOnNetworkError: true })
      return { ...response.body, idempotencyKey, replayed: response.headers.get('idempotent-replayed') === 'true' }
    },
    list: (query = {}) => read(withQuery(path('issuances'), query)),
    all: ({ pageSize = 100, achievementId } = {}) =>
      paginate((cursor) => issuances.list({ limit: pageSize, cursor, ...(achievementId !== undefined ? { achievementId } : {}) })),
    get: (id) => readData(path('issuances', id)),
    credential: (id) => readData(path('issuances', id, 'credential')),
    async file(id, { format }) {
      const url = withQuery(path('issuances', id, 'file'), { format })
      const response = await call<ArrayBuffer>({ method: 'GET', url, auth: true, retryOnNetworkError: true, parse: (answer) => answer.arrayBuffer() })
      return {
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
        filename: filenameOf(response.headers.get('content-disposition')),
        bytes: new Uint8Array(response.body),
      }
    },
    async revoke(id, { reason, idempotencyKey = crypto.randomUUID() } = {}) {
      const response = await call<{ data: IssuanceDetail }>({
        method: 'POST',
        url: path('issuances', id, 'revoke'),
        ...(reason !== undefined ? { body: { reason } } : {}),
        auth: true,
        idempotencyKey,
        retryOnNetworkError: true,
      })
      return response.body.data
    },
    async reissue(id, body, { idempotencyKey = crypto.randomUUID() } = {}) {
      const response = await call<{ data: IssuanceDetail }>({
        method: 'POST',
        url: path('issuances', id, 'reissue'),
        ...(body !== undefined ? { body } : {}),
        auth: true,
        idempotencyKey,
        retryOnNetworkError: true,
      })
      return response.body.data
    },
    async reissueMany(body, { idempotencyKey = crypto.randomUUID() } = {}) {
      const response = await call<BulkReissueResult>({
        method: 'POST',
        url: path('issuances', 'reissue'),
        body,
        auth: true,
        idempotencyKey,
        retryOnNetworkError: true,
      })
      return response.body
    },
    async revokeMany(issuanceIds, { reason, idempotencyKey = crypto.randomUUID() } = {}) {
      const body = { issuanceIds, ...(reason !== undefined ? { reason } : {}) }
      const response = await call<CoreRevokeManyAnswer>({
        method: 'POST',
        url: path('issuances', 'revoke'),
        body,
        auth: true,
        idempotencyKey,
        retryOnNetworkError: true,
      })
      return { ...response.body, idempotencyKey, replayed: response.headers.get('idempotent-replayed') === 'true' }
    },
    async notify(id) {
      const response = await call<{ data: IssuanceDetail }>({ method: 'POST', url: path('issuances', id, 'notify'), auth: true, retryOnNetworkError: false })
      return response.body.data
    },
  }

  const events: ClubcredClient['events'] = {
    list: (query = {}) => read(withQuery(path('events'), query)),
    all: ({ pageSize = 100 } = {}) => paginate((cursor) => events.list({ limit: pageSize, cursor })),
  }

  const waitDeps = {
    listEvents: (cursor: string | null) => events.list({ limit: 100, cursor }),
    readCredential: (id: string) => issuances.credential(id),
    sleep,
    elapsed: () => performance.now(),
  }

  return {
    club: () => readData(`${clubPath}/`),
    achievements,
    designs,
    issuances,
    events,
    async verify(issuanceId) {
      const url = `${publicUrl}/open-badges/v3/achievements/${encodeURIComponent(String(issuanceId))}/verify`
      const isVerdict = (status: number, body: unknown) => status === 404 && typeof body === 'object' && body !== null && 'isValid' in body
      const response = await call<Verdict>({ method: 'GET', url, auth: false, retryOnNetworkError: true, accept: isVerdict })
      return response.body
    },
    waitForCredential: async (issuanceId, waitOptions) => (await waitForCredentials(waitDeps, [issuanceId], waitOptions))[0]!,
    waitForCredentials: (issuanceIds, waitOptions) => waitForCredentials(waitDeps, issuanceIds, waitOptions),
    accessToken: () => tokens.get(),
  }
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '')
}

/** `url?limit=..&cursor=..`, leaving out what is absent. */
function withQuery(url: string, query: ListOptions & { achievementId?: number; format?: string }): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query) as [string, string | number | null | undefined][]) {
    if (value !== undefined && value !== null) search.set(name, String(value))
  }
  const text = search.toString()
  return text === '' ? url : `${url}?${text}`
}

/** The file name of a `Content-Disposition`: RFC 8187 `filename*=UTF-8''...` first, else `filename="..."`. */
function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim())
    } catch {
      // A malformed extended name: fall back to the plain one.
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;\s]+)/i.exec(disposition)
  return plain ? (plain[1] ?? plain[2]!).replace(/\\(.)/g, '$1') : null
}

/** A pause; rejects with the signal's reason when it aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted()
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
