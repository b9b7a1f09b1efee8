/**
 * A crash loses no accepted issuance and never yields two credentials for one issuance (docs/decisions/0026-bars-every-feature-meets.md),
 * with the real server process: issue 500 recipients, SIGKILL the server at
 * three moments (signing done, jobs queued, jobs claimed and being signed), restart it on the same data
 * dir and check, over HTTP and in the SQLite file, one credential and one event per issuance, distinct
 * status slots and none wasted. The three run side by side.
 */
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { after, describe, it, type TestContext } from 'node:test'
import Database from 'better-sqlite3'
import { request } from 'undici'
import { DEFAULTS } from '../../core/config.ts'
import { permuteIndex } from '../../core/status-lists/permute-index.ts'
import { assertSignedCredential } from '../support/ob3-schema.ts'
import { accessToken } from '../support/tokens.ts'
import {
  ROOT,
  clubAndClient,
  collectStderr,
  freshDataDir,
  listeningUrl,
  removeDataDir,
  startClockedServer,
  startServer,
  type HttpResponse,
  type ServerProcess,
} from '../support/server.ts'
import type { Json } from '../support/json.ts'

const RECIPIENTS = 500
/** How long a restarted server may take to sign what is left (its worker polls every second). */
const RECOVERY_MS = 30_000

/** The server as a child process we can SIGKILL (test/support/server.ts only stops with SIGTERM). */
interface KillableServer {
  url: string
  child: ChildProcess
  http(path: string, options?: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<HttpResponse>
  kill(): Promise<void>
}

async function spawnKillable(dataDir: string): Promise<KillableServer> {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('CLUBCRED_') && name !== 'PORT' && name !== 'HOST') env[name] = value
  }
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/node.ts')], {
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', CLUBCRED_DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await listeningUrl(child, exited, collectStderr(child))
  return {
    url,
    child,
    async http(path, { method = 'GET', headers = {}, body } = {}) {
      const response = await request(url + path, { method, headers, body, reset: true })
      const text = await response.body.text()
      const flat: Record<string, string> = {}
      for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') flat[name] = value
      return { status: response.statusCode, headers: flat, text, json: text ? JSON.parse(text) : undefined }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

interface Api {
  http: KillableServer['http'] | ServerProcess['http']
  token: string
}

const get = async (api: Api, path: string) => {
  const response = await api.http(path, { headers: { authorization: `Bearer ${api.token}` } })
  assert.equal(response.status, 200, `${path}: ${response.status} ${response.text}`)
  return response.json
}

async function listAll(api: Api, path: string): Promise<Json[]> {
  const items: Json[] = []
  let cursor: string | null = null
  do {
    const page = await get(api, `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    items.push(...page.data)
    cursor = page.meta.nextCursor
  } while (cursor !== null)
  return items
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Every server a test started, stopped after the tests whatever happened, so that none outlives a failure. */
const running: { stop(): Promise<unknown> }[] = []
function track<T extends { stop(): Promise<unknown> }>(server: T): T {
  running.push(server)
  return server
}

/** Fails instead of waiting forever. */
function deadline(ms: number, what: string): () => void {
  const end = Date.now() + ms
  return () => {
    if (Date.now() > end) assert.fail(`${what} did not happen within ${ms} ms`)
  }
}

/** The club, its client and a template, made through the CLI and the API of a running server. */
async function prepare(dataDir: string) {
  const client = await clubAndClient(dataDir, 'chess')
  const server = await spawnKillable(dataDir)
  track({ stop: server.kill })
  const api: Api = { http: server.http, token: await accessToken(server as unknown as ServerProcess, client) }
  const created = await api.http('/v2/clubs/chess/achievements', {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Spring tournament', description: 'Played all seven rounds.', tag: ['tournament'] }),
  })
  assert.equal(created.status, 201, created.text)
  return { client, server, api, templateId: created.json.data.id as number }
}

function postRecipients(api: Api, templateId: number, idempotencyKey?: string) {
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ externalUserId: `player-${i}`, name: `Player ${i}`, email: `player${i}@chess.example` }))
  return api.http('/v2/clubs/chess/issuances', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${api.token}`,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify({ achievementFormId: templateId, mode: 'none', recipients }),
  })
}

/** What the SQLite file holds of the signing work right now. */
function progress(dataDir: string) {
  const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n
    return {
      credentials: count('SELECT count(*) AS n FROM credentials'),
      jobs: count('SELECT count(*) AS n FROM signing_jobs'),
      leased: count('SELECT count(*) AS n FROM signing_jobs WHERE lease_until IS NOT NULL'),
      slotted: count('SELECT count(*) AS n FROM signing_jobs WHERE status_list_index IS NOT NULL'),
      idempotencyKeys: count('SELECT count(*) AS n FROM idempotency_keys'),
      answered: count('SELECT count(*) AS n FROM idempotency_keys WHERE response_body IS NOT NULL'),
    }
  } finally {
    db.close()
  }
}

/** Waits until every issuance of the restarted server has its credential. */
async function awaitCredentials(t: TestContext, server: ServerProcess, client: { client_id: string; client_secret: string }) {
  const api: Api = { http: server.http, token: await accessToken(server, client) }
  const started = Date.now()
  for (;;) {
    const items = await listAll(api, '/v2/clubs/chess/issuances')
    assert.equal(items.length, RECIPIENTS, 'no accepted issuance lost')
    if (items.every((item) => item.credentialId !== null)) break
    if (Date.now() - started > RECOVERY_MS)
      assert.fail(`after ${RECOVERY_MS} ms ${items.filter((item) => item.credentialId === null).length} issuances still have no credential`)
    await sleep(250)
  }
  t.diagnostic(`all ${RECIPIENTS} credentials ${Date.now() - started} ms after waiting began`)
  return api
}

/** The invariants of docs/decisions/0026-bars-every-feature-meets.md, read over HTTP and from the SQLite file after a clean stop. */
async function assertRecovered(api: Api, server: ServerProcess, dataDir: string) {
  const issuances = await listAll(api, '/v2/clubs/chess/issuances')
  const events = await listAll(api, '/v2/clubs/chess/events')
  await server.stop()

  const issued = events.filter((event) => event.type === 'issuance.issued')
  const credentialIssued = events.filter((event) => event.type === 'issuance.credential_issued')
  assert.equal(issued.length, RECIPIENTS, 'one issuance.issued per issuance')
  assert.equal(credentialIssued.length, RECIPIENTS, 'one issuance.credential_issued per issuance')
  const issuanceIds = new Set(issuances.map((item) => String(item.id)))
  assert.equal(new Set(credentialIssued.map((event) => event.subject.id)).size, RECIPIENTS, 'distinct subjects')
  for (const event of credentialIssued) assert.ok(issuanceIds.has(event.subject.id))

  const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
  try {
    const credentials = db
      .prepare(
        `SELECT c.id, c.issuance_id, c.jwt, c.status_list_id, c.status_list_index, i.recipient_email
         FROM credentials c JOIN issuances i ON i.id = c.issuance_id WHERE c.club = 'chess'`,
      )
      .all() as { id: string; issuance_id: number; jwt: string; status_list_id: number; status_list_index: number; recipient_email: string }[]
    assert.equal(credentials.length, RECIPIENTS, 'exactly one credential per issuance')
    assert.equal(new Set(credentials.map((row) => row.issuance_id)).size, RECIPIENTS)
    assert.deepStrictEqual(new Set(credentials.map((row) => String(row.issuance_id))), issuanceIds)
    for (const item of issuances) assert.equal(item.credentialId, credentials.find((row) => row.issuance_id === item.id)!.id)

    const lists = db.prepare(`SELECT id, size, seed, allocated FROM status_lists WHERE club = 'chess' ORDER BY id`).all() as {
      id: number
      size: number
      seed: string
      allocated: number
    }[]
    assert.equal(
      lists.reduce((sum, list) => sum + list.allocated, 0),
      RECIPIENTS,
      'slots handed out = credentials: none wasted by the crash',
    )
    const handedOut = new Set(lists.flatMap((list) => Array.from({ length: list.allocated }, (_, p) => `${list.id}#${permuteIndex(p, list.seed, list.size)}`)))
    const used = credentials.map((row) => `${row.status_list_id}#${row.status_list_index}`)
    assert.equal(new Set(used).size, RECIPIENTS, 'distinct status-list indexes')
    assert.deepStrictEqual(new Set(used), handedOut, 'the indexes are exactly the slots handed out')
    assert.equal((db.prepare('SELECT count(*) AS n FROM signing_jobs').get() as { n: number }).n, 0, 'no signing job left')

    const keys = (db.prepare(`SELECT kid, public_jwk FROM keys WHERE owner = 'club:chess'`).all() as { kid: string; public_jwk: string }[]).map((row) => ({
      kid: row.kid,
      publicJwk: JSON.parse(row.public_jwk),
    }))
    for (const row of credentials) {
      const checked = await assertSignedCredential(row.jwt, { keys, email: row.recipient_email })
      assert.equal(checked.vc.id, `urn:uuid:${row.id}`)
      assert.equal(checked.statusListIndex, row.status_list_index)
    }
  } finally {
    db.close()
  }
}

describe('a crash while issuing (docs/decisions/0026-bars-every-feature-meets.md)', { concurrency: true, timeout: RECOVERY_MS + 60_000 }, () => {
  const dirs: string[] = []
  after(async () => {
    await Promise.all(running.map((server) => server.stop()))
    dirs.forEach(removeDataDir)
  })

  it('SIGKILL at the first issuance.credential_issued event: after a restart, 500 credentials, one per issuance, no slot lost', async (t) => {
    const dataDir = freshDataDir()
    dirs.push(dataDir)
    const { client, server, api, templateId } = await prepare(dataDir)
    const posted = await postRecipients(api, templateId)
    assert.equal(posted.status, 200, posted.text)
    assert.equal(posted.json.summary.ok, RECIPIENTS)
    const waiting = deadline(RECOVERY_MS, 'the first issuance.credential_issued event')
    for (;;) {
      const newest = await get(api, '/v2/clubs/chess/events?limit=1')
      if (newest.data[0]?.type === 'issuance.credential_issued') break
      waiting()
    }
    await server.kill()
    t.diagnostic(`at the kill: ${JSON.stringify(progress(dataDir))}`)

    const restarted = track(await startServer({ dataDir }))
    await assertRecovered(await awaitCredentials(t, restarted, client), restarted, dataDir)
  })

  it('SIGKILL as soon as the batch is accepted: after a restart, 500 credentials, one per issuance, no slot lost', async (t) => {
    const dataDir = freshDataDir()
    dirs.push(dataDir)
    const { client, server, api, templateId } = await prepare(dataDir)
    const posted = await postRecipients(api, templateId)
    await server.kill()
    assert.equal(posted.status, 200, posted.text)
    assert.equal(posted.json.summary.ok, RECIPIENTS)
    t.diagnostic(`at the kill: ${JSON.stringify(progress(dataDir))}`)

    // Whether the worker had claimed the jobs yet is a race; a clock the test moves ends any lease at once.
    const restarted = track(await startClockedServer({ dataDir }))
    await restarted.advance(DEFAULTS.signingLeaseMs + 1000)
    await assertRecovered(await awaitCredentials(t, restarted, client), restarted, dataDir)
  })

  it('SIGKILL while the worker holds the jobs signing: the restart waits out the lease, then signs each once with its reserved slot', async (t) => {
    const dataDir = freshDataDir()
    dirs.push(dataDir)
    const { client, server, api, templateId } = await prepare(dataDir)
    const posted = await postRecipients(api, templateId)
    assert.equal(posted.status, 200, posted.text)
    // Watch the SQLite file and kill the moment the jobs are claimed (leased, slots reserved) and not stored.
    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    const state = db.prepare(
      'SELECT (SELECT count(*) FROM credentials) AS credentials, (SELECT count(*) FROM signing_jobs WHERE lease_until IS NOT NULL) AS leased',
    )
    const waiting = deadline(RECOVERY_MS, 'the claim of the jobs')
    for (;;) {
      waiting()
      const now = state.get() as { credentials: number; leased: number }
      if (now.leased > 0) break
      assert.equal(now.credentials, 0, 'the worker stored credentials before the claim was seen')
      await new Promise((resolve) => setImmediate(resolve))
    }
    await server.kill()
    db.close()
    const atKill = progress(dataDir)
    t.diagnostic(`at the kill: ${JSON.stringify(atKill)}`)
    assert.equal(atKill.credentials, 0, 'killed before the signed credentials were stored')
    assert.ok(atKill.leased > 0 && atKill.slotted === atKill.leased, 'claimed jobs hold their status slots')
    const reserved = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    const slots = new Map(
      (
        reserved.prepare('SELECT issuance_id, status_list_id, status_list_index FROM signing_jobs WHERE lease_until IS NOT NULL').all() as {
          issuance_id: number
          status_list_id: number
          status_list_index: number
        }[]
      ).map((row) => [row.issuance_id, `${row.status_list_id}#${row.status_list_index}`]),
    )
    reserved.close()

    // The restarted server runs on a clock the test moves, so that the lease ends without a minute's wait.
    const restarted = track(await startClockedServer({ dataDir }))
    await sleep(2500)
    assert.equal(progress(dataDir).credentials, atKill.leased === RECIPIENTS ? 0 : RECIPIENTS - atKill.leased, 'leased jobs wait for their lease')
    await restarted.advance(DEFAULTS.signingLeaseMs + 1000)
    await assertRecovered(await awaitCredentials(t, restarted, client), restarted, dataDir)

    const after = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    for (const row of after.prepare('SELECT issuance_id, status_list_id, status_list_index FROM credentials').all() as {
      issuance_id: number
      status_list_id: number
      status_list_index: number
    }[]) {
      if (slots.has(row.issuance_id)) assert.equal(`${row.status_list_id}#${row.status_list_index}`, slots.get(row.issuance_id), 'the reserved slot is used')
    }
    after.close()
  })

  it('SIGKILL while the POST is handled: the client retries with its Idempotency-Key and ends with exactly one batch', async (t) => {
    const dataDir = freshDataDir()
    dirs.push(dataDir)
    const { client, server, api, templateId } = await prepare(dataDir)
    const lost = postRecipients(api, templateId, 'spring-2030').then(
      (response) => `answered ${response.status}`,
      (error: Error) => `lost (${error.message})`,
    )
    await sleep(25)
    await server.kill()
    t.diagnostic(`the first POST: ${await lost}; at the kill: ${JSON.stringify(progress(dataDir))}`)
    const atKill = progress(dataDir)
    const committed = atKill.jobs + atKill.credentials
    assert.ok(committed === 0 || committed === RECIPIENTS, `a batch is all or nothing, found ${committed}`)
    assert.equal(atKill.answered, committed === 0 ? 0 : 1, 'the answer of the key is stored with the batch, in the same unit')

    // A clock the test moves: an unfinished claim of the key is taken over after a minute (and any lease ends).
    const restarted = track(await startClockedServer({ dataDir }))
    const retryApi: Api = { http: restarted.http, token: await accessToken(restarted, client) }
    if (atKill.idempotencyKeys === 1 && atKill.answered === 0) {
      const early = await postRecipients(retryApi, templateId, 'spring-2030')
      assert.equal(early.status, 409, early.text)
      assert.equal(early.json.code, 'idempotency-in-flight')
    }
    await restarted.advance(DEFAULTS.signingLeaseMs + 1000)
    const retry = await postRecipients(retryApi, templateId, 'spring-2030')
    assert.equal(retry.status, 200, retry.text)
    assert.equal(retry.json.summary.total, RECIPIENTS)
    assert.equal(retry.headers['idempotent-replayed'] === 'true', committed === RECIPIENTS, 'replayed exactly when the first batch was committed')
    assert.equal(retry.json.summary.ok, RECIPIENTS)
    t.diagnostic(`the retry: ${retry.headers['idempotent-replayed'] === 'true' ? 'replayed' : 'issued'} ${JSON.stringify(retry.json.summary)}`)
    await assertRecovered(await awaitCredentials(t, restarted, client), restarted, dataDir)
  })
})
