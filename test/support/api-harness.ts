/**
 * The one HTTP test harness: an issuer on a fresh SQLite file with one club, called through its fetch
 * handler or, with `listen`, through node:http on an ephemeral port. Two views share that setup:
 * `openApi` (JSON in, JSON out, a fixed all-scope token, the storage and key store at hand) and
 * `openVerificationApi` for the public verification surface (the raw text of each answer, since JWTs
 * are text/plain and replays are compared byte for byte; unauthenticated requests; the SQLite file to
 * alter a stored JWT; a sibling issuer on the same file; a token renewed as the test clock moves).
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import Database from 'better-sqlite3'
import { Agent, request } from 'undici'
import { createIssuer, defaultUrls, type Issuer } from '../../index.ts'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { toNodeListener } from '../../adapters/node/index.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import type { DataIntegritySigner } from '../../core/ports/data-integrity-signer.ts'
import { clubDid } from '../../core/did-documents/did.ts'
import { systemClock, type Clock } from '../../core/ports/clock.ts'
import { createKeyStore } from '../../core/keys/create-key-store.ts'
import type { KeyStore } from '../../core/ports/key-store.ts'
import type { StoragePort } from '../../core/ports/storage.ts'
import type { CertificateRenderer } from '../../core/ports/certificate-renderer.ts'
import type { FileLimits } from '../../core/config.ts'
import { clientCredentialsGrant } from './tokens.ts'
import { ORIGIN } from './origin.ts'
import type { Json } from './json.ts'
import type { PresentationVerifier } from '../../core/ports/presentation-verifier.ts'
import type { ShareCardRenderer } from '../../core/ports/share-card-renderer.ts'
import type { Notifier } from '../../core/ports/notifier.ts'

interface HarnessOptions {
  club?: string
  clock?: Clock
  certificates?: CertificateRenderer
  /** Draws share cards (the share page's `og:image`); none by default. */
  shareCards?: ShareCardRenderer
  files?: Partial<FileLimits>
  /** Serve the issuer with node:http on 127.0.0.1 and an ephemeral port; the public URLs name it. */
  listen?: boolean
  /** The issuer's Data Integrity signer; none by default, so that tests not about the JSON-LD form spend no CPU on proofs. */
  dataIntegritySigner?: DataIntegritySigner | null
  /** Make Data Integrity proofs with the Node signer, as the server does (`dataIntegritySigner` wins when given). */
  proofs?: boolean
  /** Checks the Learner Credential Wallet's DID Authentication (its exchange is offered only with one). */
  presentationVerifier?: PresentationVerifier
  /**
   * Serve over https with this certificate (PEM) instead, at `https://localhost:<port>` (still listening
   * on 127.0.0.1): the URLs, and so the club's did:web, name `localhost:<port>`. Implies `listen`.
   */
  tls?: { key: string; cert: string }
  /** Sends recipient mail (the SMTP notifier on a loopback sink); none by default, mail stays in the outbox. */
  notifier?: Notifier
}

/** An answer as bytes; each view reads it its own way. */
interface Exchange {
  status: number
  headers: Headers
  bytes: Uint8Array
}

type Send = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Exchange>

interface Harness {
  issuer: Issuer
  storage: StoragePort
  keys: KeyStore
  club: string
  origin: string
  dbFile: string
  send: Send
  /** A bearer token for this client, from the token endpoint (asserting 200). */
  mint(client: { client_id: string; client_secret: string }): Promise<string>
  /** Another issuer on the same SQLite file with the same options, closed by `close()`. */
  sibling(): Issuer
  close(): Promise<void>
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function openHarness(
  {
    club = 'chess',
    clock,
    certificates,
    shareCards,
    files,
    listen: listenHttp = false,
    dataIntegritySigner,
    proofs = false,
    presentationVerifier,
    tls,
    notifier,
  }: HarnessOptions,
  label: string,
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), `clubcred-${label}-`))
  const listen = listenHttp || tls !== undefined
  const dbFile = join(dir, 'clubcred.db')

  let server: Server | null = null
  let port = 8787
  let host = 'localhost'
  // The handler is set once the issuer exists; the issuer's URLs need the port first.
  let handler: ((request: Request) => Promise<Response>) | null = null
  if (listen) {
    const listener = (req: Parameters<ReturnType<typeof toNodeListener>>[0], res: Parameters<ReturnType<typeof toNodeListener>>[1]) =>
      toNodeListener(handler!)(req, res)
    server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, listener) : createServer(listener)
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    host = tls ? 'localhost' : '127.0.0.1'
  }
  const origin = `${tls ? 'https' : 'http'}://${host}:${port}`
  const urls = Object.fromEntries(
    Object.entries(defaultUrls(port, host)).map(([name, url]) => [name, tls ? url.replace(/^http:/, 'https:') : url]),
  ) as ReturnType<typeof defaultUrls>

  function open(): { issuer: Issuer; storage: StoragePort; keys: KeyStore } {
    const storage = createSqliteStorage({ driver: betterSqlite3Driver(dbFile) })
    const keys = createKeyStore({ storage, masterKey: new Uint8Array(32).fill(7), ...(clock ? { clock } : {}) })
    const issuer = createIssuer({
      storage,
      keys,
      dataIntegritySigner: dataIntegritySigner ?? (proofs ? createDataIntegritySigner() : null),
      ...(presentationVerifier ? { presentationVerifier } : {}),
      ...(notifier ? { notifier } : {}),
      urls,
      ...(clock ? { clock } : {}),
      ...(certificates ? { certificates } : {}),
      ...(shareCards ? { shareCards } : {}),
      ...(files ? { files } : {}),
      http: { onError: (error) => console.error(error) },
    })
    return { issuer, storage, keys }
  }
  const { issuer, storage, keys } = open()
  const siblings: Issuer[] = []
  handler = issuer.fetch
  await issuer.clubs.create({ domain: club, name: 'Chess Club' })

  const agent = listen ? new Agent({ keepAliveTimeout: 1000, ...(tls ? { connect: { ca: tls.cert } } : {}) }) : null
  const send: Send = async (url, init) => {
    if (agent) {
      const response = await request(url, { method: init.method as 'GET', headers: init.headers, body: init.body ?? null, dispatcher: agent })
      const headers = new Headers()
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue
        for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
      }
      return { status: response.statusCode, headers, bytes: new Uint8Array(await response.body.arrayBuffer()) }
    }
    const response = await issuer.fetch(new Request(url, init.body === undefined ? init : { ...init, body: init.body }))
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
  }

  return {
    issuer,
    storage,
    keys,
    club,
    origin,
    dbFile,
    send,
    async mint(client) {
      const response = await send(`${origin}/oauth/token`, clientCredentialsGrant(client))
      const body = text(response.bytes)
      assert.equal(response.status, 200, `token endpoint said ${response.status}: ${body}`)
      return JSON.parse(body).access_token
    },
    sibling() {
      const other = open().issuer
      siblings.push(other)
      return other
    },
    async close() {
      for (const other of siblings) await other.close()
      await agent?.close()
      if (server) {
        server.closeAllConnections()
        await new Promise((resolve) => server!.close(resolve))
      }
      await issuer.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A request with `body` serialised as JSON unless it is a string already (then typed JSON unless told). */
function withBody(method: string, headers: Record<string, string>, body: unknown): Parameters<Send>[1] {
  if (body === undefined) return { method, headers }
  return {
    method,
    headers: { ...headers, 'content-type': headers['content-type'] ?? 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }
}

/** A token for a new client of the harness's club with these scopes (all when absent). */
async function tokenFor(harness: Harness, scopes?: string[]): Promise<string> {
  return harness.mint(await harness.issuer.clients.create({ club: harness.club, ...(scopes ? { scopes } : {}) }))
}

export interface ApiResponse {
  status: number
  headers: Headers
  body: Json
}

export interface Api {
  issuer: Issuer
  /** The storage the harness opened the issuer on, for tests that arrange or inspect rows. */
  storage: StoragePort
  /** The issuer's key store (the harness builds it), for tests that check or forge signatures. */
  keys: KeyStore
  /** The SQLite file the issuer stores into, for rows the storage port never writes. */
  dbFile: string
  club: string
  token: string
  /** A request through `issuer.fetch`, the same handler the server mounts; JSON in, JSON out. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>
  /** A GET through `issuer.fetch` with the all-scope token, answered as raw bytes (files, images). */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; bytes: Uint8Array; text: string; json: Json }>
  /** A token for another client of this club with only these scopes. */
  tokenWith(scopes: string[]): Promise<string>
  close(): Promise<void>
}

/**
 * An issuer on a fresh SQLite file with one club and an all-scope client, called in-process through
 * its fetch handler.
 */
export async function openApi(options: Omit<HarnessOptions, 'listen'> = {}): Promise<Api> {
  const harness = await openHarness(options, 'api')
  const token = await tokenFor(harness)
  return {
    issuer: harness.issuer,
    storage: harness.storage,
    keys: harness.keys,
    dbFile: harness.dbFile,
    club: harness.club,
    token,
    async call(method, path, body, headers = {}) {
      const response = await harness.send(`${ORIGIN}${path}`, withBody(method, { authorization: `Bearer ${token}`, ...headers }, body))
      const answer = text(response.bytes)
      return { status: response.status, headers: response.headers, body: answer ? JSON.parse(answer) : null }
    },
    async get(path, headers = {}) {
      const response = await harness.send(`${ORIGIN}${path}`, { method: 'GET', headers: { authorization: `Bearer ${token}`, ...headers } })
      const answer = text(response.bytes)
      const isJson = /json/.test(response.headers.get('content-type') ?? '')
      return { ...response, text: answer, json: isJson && answer ? JSON.parse(answer) : null }
    },
    tokenWith: (scopes) => tokenFor(harness, scopes),
    close: harness.close,
  }
}

export interface RawResponse {
  status: number
  headers: Headers
  /** The body exactly as sent. */
  text: string
  /** The body parsed as JSON, or `null` when it is empty or not JSON. */
  body: Json
}

export interface CallOptions {
  /** Send the all-scope bearer token (default), another token, or no Authorization header at all. */
  token?: string | null
}

export interface VerificationApi {
  issuer: Issuer
  club: string
  token: string
  /** The origin requests go to: the real server's when listening, else the in-process handler's. */
  origin: string
  /** The SQLite file the issuer stores into. */
  dbFile: string
  /** The club's did:web. */
  did: string
  /** The issuer's key store. */
  keys: KeyStore
  /** The issuer's storage (the SQLite file), for what no HTTP answer shows. */
  storage: StoragePort
  /**
   * A request with the all-scope bearer token (renewed as the clock moves), another token, or none
   * (`token: null`); JSON bodies are serialised.
   */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>, options?: CallOptions): Promise<RawResponse>
  /** An unauthenticated GET, as a wallet or a verifier on another site sends it. */
  get(pathOrUrl: string, headers?: Record<string, string>): Promise<RawResponse>
  /** A token for another client of this club with only these scopes. */
  tokenWith(scopes: string[]): Promise<string>
  /** Runs `sql` on the SQLite file through a second connection (the way an attacker with disk access would). */
  sql(statement: string, ...params: unknown[]): Database.RunResult
  /**
   * Another issuer on the same SQLite file with the same options: the issuer after a restart, or a
   * second server process beside it. Closed by `close()`.
   */
  sibling(): Issuer
  close(): Promise<void>
}

export interface VerificationApiOptions {
  club?: string
  clock?: Clock
  /** Serve the issuer with node:http on 127.0.0.1 and an ephemeral port; the public URLs name it. */
  listen?: boolean
  /** The issuer's Data Integrity signer; none by default. */
  dataIntegritySigner?: DataIntegritySigner | null
  /** Make Data Integrity proofs with the Node signer, as the server does. */
  proofs?: boolean
  /** Serve over https at `https://localhost:<port>` with this certificate (PEM); implies `listen`. */
  tls?: { key: string; cert: string }
  /** Sends recipient mail; none by default. */
  notifier?: Notifier
}

/** The issuer behind the public verification surface (docs/api.md §4.7, §4.11), answering raw text. */
export async function openVerificationApi({
  club,
  clock,
  listen,
  dataIntegritySigner,
  proofs,
  tls,
  notifier,
}: VerificationApiOptions = {}): Promise<VerificationApi> {
  const harness = await openHarness(
    {
      club,
      clock,
      listen,
      proofs,
      ...(dataIntegritySigner !== undefined ? { dataIntegritySigner } : {}),
      ...(tls ? { tls } : {}),
      ...(notifier ? { notifier } : {}),
    },
    'verification',
  )
  const { issuer, origin } = harness

  async function send(url: string, init: Parameters<Send>[1]): Promise<RawResponse> {
    const response = await harness.send(url, init)
    const answer = text(response.bytes)
    let body: Json
    try {
      body = answer ? JSON.parse(answer) : null
    } catch {
      body = null
    }
    return { status: response.status, headers: response.headers, text: answer, body }
  }
  const absolute = (pathOrUrl: string) => (/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : origin + pathOrUrl)

  // The all-scope token, minted again when the issuer's clock (which tests move) nears its expiry.
  const client = await issuer.clients.create({ club: harness.club })
  let token = await harness.mint(client)
  let mintedAt = (clock ?? systemClock).now()
  async function currentToken(): Promise<string> {
    const now = (clock ?? systemClock).now()
    if (now - mintedAt > (issuer.config.accessTokenTtlSeconds - 60) * 1000) {
      token = await harness.mint(client)
      mintedAt = now
    }
    return token
  }

  let db: Database.Database | null = null

  return {
    issuer,
    club: harness.club,
    get token() {
      return token
    },
    origin,
    dbFile: harness.dbFile,
    did: clubDid(issuer.config, harness.club),
    keys: harness.keys,
    storage: harness.storage,
    async call(method, path, body, headers = {}, options = {}) {
      const callToken = options.token === undefined ? await currentToken() : options.token
      return send(absolute(path), withBody(method, { ...(callToken === null ? {} : { authorization: `Bearer ${callToken}` }), ...headers }, body))
    },
    get(pathOrUrl, headers = {}) {
      return send(absolute(pathOrUrl), { method: 'GET', headers })
    },
    tokenWith: (scopes) => tokenFor(harness, scopes),
    sql(statement, ...params) {
      db ??= new Database(harness.dbFile)
      db.pragma('busy_timeout = 10000')
      return db.prepare(statement).run(...params)
    },
    sibling: harness.sibling,
    async close() {
      db?.close()
      await harness.close()
    },
  }
}
