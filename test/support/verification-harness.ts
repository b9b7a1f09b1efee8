/**
 * The issuer behind the public verification surface (interface-spec §4.7, §4.11), built like
 * `openApi` in ./api-harness.ts but exposing what the verification tests need beside it: the SQLite
 * file (to alter a stored JWT), the raw text of each answer (JWTs are text/plain; replays are compared
 * byte for byte), unauthenticated requests, and optionally a real node:http server on an ephemeral
 * port whose public URLs (and so the club's did:web) name that port, so that tools written elsewhere
 * can resolve the DID document over HTTP.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import Database from 'better-sqlite3'
import { Agent, request } from 'undici'
import { decodeJwt } from 'jose'
import { createIssuer, defaultUrls, type Issuer } from '../../index.ts'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { toNodeListener } from '../../adapters/node/index.ts'
import { clubDid } from '../../core/did-documents/did.ts'
import { systemClock, type Clock } from '../../core/ports/clock.ts'

export interface RawResponse {
  status: number
  headers: Headers
  /** The body exactly as sent. */
  text: string
  /** The body parsed as JSON, or `null` when it is empty or not JSON. */
  body: any
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
}

export async function openVerificationApi({ club = 'chess', clock, listen = false }: VerificationApiOptions = {}): Promise<VerificationApi> {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-verification-'))
  const dbFile = join(dir, 'clubcred.db')

  let server: Server | null = null
  let port = 8787
  let host = 'localhost'
  // The handler is set once the issuer exists; the issuer's URLs need the port first.
  let handler: ((request: Request) => Promise<Response>) | null = null
  if (listen) {
    server = createServer((req, res) => toNodeListener(handler!)(req, res))
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    host = '127.0.0.1'
  }
  const origin = `http://${host}:${port}`

  const open = () =>
    createIssuer({
      storage: createSqliteStorage({ driver: betterSqlite3Driver(dbFile) }),
      masterKey: new Uint8Array(32).fill(7),
      urls: defaultUrls(port, host),
      ...(clock ? { clock } : {}),
      http: { onError: (error) => console.error(error) },
    })
  const issuer = open()
  const siblings: Issuer[] = []
  handler = issuer.fetch
  await issuer.clubs.create({ domain: club, name: 'Chess Club' })

  const agent = listen ? new Agent({ keepAliveTimeout: 1000 }) : null
  async function send(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<RawResponse> {
    let status: number
    let headers: Headers
    let text: string
    if (agent) {
      const response = await request(url, { method: init.method as 'GET', headers: init.headers, body: init.body ?? null, dispatcher: agent })
      status = response.statusCode
      headers = new Headers()
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue
        for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
      }
      text = await response.body.text()
    } else {
      const response = await issuer.fetch(new Request(url, init.body === undefined ? init : { ...init, body: init.body }))
      status = response.status
      headers = response.headers
      text = await response.text()
    }
    let body: any = null
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      body = null
    }
    return { status, headers, text, body }
  }

  const absolute = (pathOrUrl: string) => (/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : origin + pathOrUrl)

  async function tokenFor(scopes?: string[]): Promise<string> {
    return mint(await issuer.clients.create({ club, ...(scopes ? { scopes } : {}) }))
  }
  async function mint(client: { client_id: string; client_secret: string }): Promise<string> {
    const response = await send(`${origin}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + btoa(`${client.client_id}:${client.client_secret}`),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    })
    assert.equal(response.status, 200, `token endpoint said ${response.status}: ${response.text}`)
    return response.body.access_token
  }
  // The all-scope token, minted again when the issuer's clock (which tests move) nears its expiry.
  const client = await issuer.clients.create({ club })
  let token = await mint(client)
  let mintedAt = (clock ?? systemClock).now()
  async function currentToken(): Promise<string> {
    const now = (clock ?? systemClock).now()
    if (now - mintedAt > (issuer.config.accessTokenTtlSeconds - 60) * 1000) {
      token = await mint(client)
      mintedAt = now
    }
    return token
  }

  let db: Database.Database | null = null

  return {
    issuer,
    club,
    get token() {
      return token
    },
    origin,
    dbFile,
    did: clubDid(issuer.config, club),
    async call(method, path, body, headers = {}, options = {}) {
      const callToken = options.token === undefined ? await currentToken() : options.token
      const all: Record<string, string> = { ...(callToken === null ? {} : { authorization: `Bearer ${callToken}` }), ...headers }
      let text: string | undefined
      if (body !== undefined) {
        text = typeof body === 'string' ? body : JSON.stringify(body)
        all['content-type'] ??= 'application/json'
      }
      return send(absolute(path), { method, headers: all, ...(text === undefined ? {} : { body: text }) })
    },
    get(pathOrUrl, headers = {}) {
      return send(absolute(pathOrUrl), { method: 'GET', headers })
    },
    tokenWith: tokenFor,
    sql(statement, ...params) {
      db ??= new Database(dbFile)
      db.pragma('busy_timeout = 10000')
      return db.prepare(statement).run(...params)
    },
    sibling() {
      const other = open()
      siblings.push(other)
      return other
    },
    async close() {
      for (const other of siblings) await other.close()
      db?.close()
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

/** The club API paths of `club`. */
export function clubPaths(club = 'chess') {
  const issuances = `/v2/clubs/${club}/issuances`
  return {
    achievements: `/v2/clubs/${club}/achievements`,
    issuances,
    events: `/v2/clubs/${club}/events`,
    issuance: (id: number | string) => `${issuances}/${id}`,
    revoke: (id: number | string) => `${issuances}/${id}/revoke`,
    verify: (id: number | string) => `/open-badges/v3/achievements/${id}/verify`,
    jwt: (credentialId: string) => `/open-badges/v3/credentials/${credentialId}`,
    didDocument: `/open-badges/v3/issuers/${club}/did.json`,
    statusList: `/open-badges/v3/issuers/${club}/status-lists/revocation`,
  }
}

/** Asserts a status and returns the parsed body. */
export function expectStatus(response: RawResponse, status: number, what = 'request'): any {
  assert.equal(response.status, status, `${what} answered ${response.status} ${response.text}`)
  return response.body
}

/** Creates a template through HTTP and returns its id. */
export async function createTemplate(api: VerificationApi, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await api.call('POST', clubPaths(api.club).achievements, {
    name: 'Opening theory',
    description: 'Studied the main openings.',
    tag: ['chess', 'openings'],
    ...overrides,
  })
  return expectStatus(response, 201, 'template create').data.id
}

export interface Recipient {
  externalUserId: string
  name: string
  email: string
  expiresAt?: string
}

/** `count` distinct recipients, each with a name and an e-mail that appear nowhere else. */
export function members(count: number, prefix = 'member'): Recipient[] {
  return Array.from({ length: count }, (_, i) => ({
    externalUserId: `${prefix}-${i}`,
    name: `Magnus ${prefix} Carlsen ${i}`,
    email: `${prefix}.${i}@members.chess.example`,
  }))
}

/** POST issuances (mode none), asserting every recipient was issued; returns the issuance ids in order. */
export async function issueTo(api: VerificationApi, templateId: number, recipients: Recipient[], extra: Record<string, unknown> = {}): Promise<number[]> {
  const response = await api.call('POST', clubPaths(api.club).issuances, { achievementFormId: templateId, mode: 'none', recipients, ...extra })
  const body = expectStatus(response, 200, 'issue')
  assert.equal(body.summary.ok, recipients.length, `issue: ${response.text}`)
  return body.results.map((item: { resourceId: number }) => item.resourceId)
}

/** The issuance detail, asserting 200. */
export async function detailOf(api: VerificationApi, id: number): Promise<any> {
  return expectStatus(await api.call('GET', clubPaths(api.club).issuance(id)), 200, 'issuance detail').data
}

/** The issuance list item of `id` (reads the first page of 100). */
export async function listItemOf(api: VerificationApi, id: number): Promise<any> {
  const body = expectStatus(await api.call('GET', `${clubPaths(api.club).issuances}?limit=100`), 200, 'issuance list')
  const item = body.data.find((candidate: { id: number }) => candidate.id === id)
  assert.ok(item, `issuance ${id} is in the list`)
  return item
}

/** The public verdict (no Authorization header). */
export async function verdictOf(api: VerificationApi, id: number | string): Promise<RawResponse> {
  return api.get(clubPaths(api.club).verify(id))
}

/** The credential read, asserting 200. */
export async function credentialOf(api: VerificationApi, id: number): Promise<{ id: string; format: string; jwt: string; payload: Record<string, any> }> {
  return expectStatus(await api.call('GET', `${clubPaths(api.club).issuance(id)}/credential`), 200, 'credential read').data
}

/** The `credentialStatus` entry of a signed credential. */
export function statusEntryOf(jwt: string): { id: string; type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string } {
  const status = (decodeJwt(jwt) as any).vc.credentialStatus
  return Array.isArray(status) ? status[0] : status
}

/** Events of the club of one type, whole feed. */
export async function eventsOf(api: VerificationApi, type: string): Promise<any[]> {
  const events: any[] = []
  let cursor: string | null = null
  do {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) })
    const body = expectStatus(await api.call('GET', `${clubPaths(api.club).events}?${query}`), 200, 'events')
    events.push(...body.data)
    cursor = body.meta.nextCursor
  } while (cursor !== null)
  return events.filter((event) => event.type === type)
}
