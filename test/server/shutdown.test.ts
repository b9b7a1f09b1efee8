/**
 * Graceful shutdown (docs/shutdown.md) with the real server process: SIGTERM while a 1,000-recipient
 * issue is in flight and the worker holds a round; a second signal during the drain; the bound; every role.
 */
import assert from 'node:assert/strict'
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { accessToken } from '../support/tokens.ts'
import { clubAndClient, freshDataDir, linesAfterListening, removeDataDir, type ServerProcess } from '../support/server.ts'
import { assertSignedCredential } from '../support/ob3-schema.ts'
import type { Json } from '../support/json.ts'

const RECIPIENTS = 1000
const RECOVERY_MS = 60_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** The exit, once the process's last lines are read too. */
const exitOf = (server: NodeProcess) => server.closed.then(() => ({ code: server.child.exitCode, signal: server.child.signalCode }))
/** Whether the log has a line with this `msg` yet (read while the process runs: a line may be half read). */
const logged = (server: NodeProcess, msg: string) => server.log.includes(`"msg":${JSON.stringify(msg)}`)
const SHUTTING_DOWN = 'shutting down; a second signal exits at once'
/** The shutdown's own lines (docs/shutdown.md), after checking that every line after the listening line is JSON. */
const shutdownLines = (server: NodeProcess) =>
  linesAfterListening(server)
    .filter((line) => line.msg !== 'request')
    .map(({ level, msg, signal, timeoutMs }) => ({ level, msg, ...(signal ? { signal } : {}), ...(timeoutMs ? { timeoutMs } : {}) }))
const alive = (server: NodeProcess) => server.child.exitCode === null && server.child.signalCode === null

const running: NodeProcess[] = []
const dirs: string[] = []
async function spawn(env: Record<string, string>, runtime: 'node' | 'deno' = 'node'): Promise<NodeProcess> {
  const server = await spawnNode(env, { runtime })
  running.push(server)
  return server
}

function recipientsBody(templateId: number, batch: string): string {
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({
    externalUserId: `${batch}-${i}`,
    name: `Player ${i}`,
    email: `${batch}${i}@chess.example`,
  }))
  return JSON.stringify({ achievementFormId: templateId, mode: 'none', recipients })
}

/**
 * A request whose body is sent in two parts, so that it is certainly in flight (the server reading its
 * body) until `finish()` sends the rest. It asks `Expect: 100-continue` and sends the first part on the
 * server's `100 Continue`: `arrived` then proves that the server is handling it (Node answers 100 as it
 * hands the request to the handler, Deno as the handler starts reading the body).
 */
function slowPost(url: string, path: string, token: string, body: string) {
  const bytes = Buffer.from(body)
  let req!: ClientRequest
  let arrived!: () => void
  const continued = new Promise<void>((resolve) => (arrived = resolve))
  const response = new Promise<{ status: number; headers: IncomingMessage['headers']; json: Json }>((resolve, reject) => {
    req = httpRequest(
      url + path,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          connection: 'keep-alive',
          expect: '100-continue',
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.on('continue', () => {
      req.write(bytes.subarray(0, bytes.length >> 1))
      arrived()
    })
    req.flushHeaders()
  })
  return { response, arrived: continued, finish: () => req.end(bytes.subarray(bytes.length >> 1)) }
}

/** A kept-alive connection with one request answered: resolves `closed` when the server ends it. */
async function idleKeepAlive(url: string) {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (received += chunk))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  socket.on('error', () => {})
  // Any route: what matters is a response that keeps the connection open.
  socket.write(`GET / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`)
  while (!/\r\n\r\n/.test(received)) await sleep(10)
  assert.match(received, /^HTTP\/1\.1 \d{3} [^]*\r\nConnection: keep-alive\r\n/)
  return { closed, socket }
}

function refused(url: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

describe('graceful shutdown (docs/shutdown.md)', { timeout: RECOVERY_MS + 60_000 }, () => {
  after(async () => {
    await Promise.all(running.map((server) => server.kill()))
    dirs.forEach(removeDataDir)
  })

  it('SIGTERM during a 1,000-recipient issue: the request completes with 200, the worker stores its round, exit 0; after a restart every issuance has one credential', async (t) => {
    const dataDir = freshDataDir()
    dirs.push(dataDir)
    const client = await clubAndClient(dataDir, 'chess')
    // Idle keep-alive connections are kept two minutes: only the shutdown can close one within the test.
    const server = await spawn({ CLUBCRED_DATA_DIR: dataDir, CLUBCRED_KEEP_ALIVE_TIMEOUT_MS: '120000' })
    const token = await accessToken(server as unknown as ServerProcess, client)
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const created = await server.http('/v2/clubs/chess/achievements', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Spring tournament', description: 'Played all seven rounds.' }),
    })
    assert.equal(created.status, 201, created.text)
    const templateId = created.json.data.id as number

    // The second batch is in flight (half its body sent) before the first one is even accepted.
    const second = slowPost(server.url, '/v2/clubs/chess/issuances', token, recipientsBody(templateId, 'b'))
    await second.arrived
    const idle = await idleKeepAlive(server.url)
    const first = await server.http('/v2/clubs/chess/issuances', { method: 'POST', headers: auth, body: recipientsBody(templateId, 'a') })
    assert.equal(first.status, 200, first.text)
    assert.equal(first.json.summary.ok, RECIPIENTS)

    // SIGTERM the moment the worker holds a round (claimed, being signed), as the crash test's SIGKILL.
    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    const leased = db.prepare('SELECT count(*) AS n FROM signing_jobs WHERE lease_until IS NOT NULL')
    const credentials = db.prepare('SELECT count(*) AS n FROM credentials')
    const started = Date.now()
    while ((leased.get() as { n: number }).n === 0 && (credentials.get() as { n: number }).n === 0) {
      if (Date.now() - started > RECOVERY_MS) assert.fail('the worker never claimed the first batch')
      await new Promise((resolve) => setImmediate(resolve))
    }
    const exited = exitOf(server)
    server.child.kill('SIGTERM')
    const heldAtSignal = (leased.get() as { n: number }).n
    t.diagnostic(`at SIGTERM: ${heldAtSignal} jobs leased, ${(credentials.get() as { n: number }).n} credentials`)

    for (const until = Date.now() + 10_000; !logged(server, SHUTTING_DOWN); await sleep(5)) {
      if (Date.now() > until) assert.fail(`no shutdown began within 10 s of SIGTERM:\n${server.log}`)
    }
    await idle.closed // the idle keep-alive connection is closed at once, while a request is still in flight
    assert.ok(alive(server), 'still draining: the second batch is in flight')
    assert.equal(await refused(server.url), 'ECONNREFUSED', 'new connections are refused after SIGTERM')

    second.finish()
    const answered = await second.response
    assert.equal(answered.status, 200)
    assert.equal(answered.json.summary.ok, RECIPIENTS, 'the whole batch accepted')
    assert.equal(answered.headers.connection, 'close', 'the busy keep-alive connection closes after its response')
    assert.deepEqual(await exited, { code: 0, signal: null }, server.stderr)
    assert.deepEqual(shutdownLines(server).slice(-2), [
      { level: 'info', msg: SHUTTING_DOWN, signal: 'SIGTERM', timeoutMs: 30000 },
      { level: 'info', msg: 'shut down' },
    ])

    const atExit = db
      .prepare(
        `SELECT (SELECT count(*) FROM signing_jobs WHERE lease_until IS NOT NULL) AS leased, (SELECT count(*) FROM signing_jobs) AS jobs,
         (SELECT count(*) FROM credentials) AS credentials, (SELECT count(*) FROM issuances) AS issuances`,
      )
      .get() as { leased: number; jobs: number; credentials: number; issuances: number }
    db.close()
    t.diagnostic(`at exit: ${JSON.stringify(atExit)}`)
    assert.equal(atExit.issuances, 2 * RECIPIENTS, 'both batches stored')
    assert.equal(atExit.leased, 0, 'the round the worker held was stored, none left leased')
    assert.equal(atExit.jobs + atExit.credentials, 2 * RECIPIENTS, 'every issuance has a credential or a queued job')

    // Restarted on the same data dir: the queued jobs are signed at once (no lease to wait out).
    const restarted = await spawn({ CLUBCRED_DATA_DIR: dataDir })
    const waited = Date.now()
    for (;;) {
      const check = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
      const n = (check.prepare('SELECT count(*) AS n FROM credentials').get() as { n: number }).n
      check.close()
      if (n === 2 * RECIPIENTS) break
      if (Date.now() - waited > RECOVERY_MS) assert.fail(`after ${RECOVERY_MS} ms only ${n} credentials`)
      await sleep(200)
    }
    const stopped = exitOf(restarted)
    restarted.child.kill('SIGTERM')
    assert.deepEqual(await stopped, { code: 0, signal: null }, restarted.stderr)

    const after = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    try {
      const rows = after.prepare(`SELECT c.id, c.issuance_id, c.jwt, i.recipient_email FROM credentials c JOIN issuances i ON i.id = c.issuance_id`).all() as {
        id: string
        issuance_id: number
        jwt: string
        recipient_email: string
      }[]
      assert.equal(rows.length, 2 * RECIPIENTS)
      assert.equal(new Set(rows.map((row) => row.issuance_id)).size, 2 * RECIPIENTS, 'one credential per issuance: nothing signed twice')
      const events = after.prepare(`SELECT subject_id FROM events WHERE type = 'issuance.credential_issued'`).all() as { subject_id: string }[]
      assert.equal(events.length, 2 * RECIPIENTS, 'one issuance.credential_issued event per issuance')
      assert.deepEqual(new Set(events.map((event) => Number(event.subject_id))), new Set(rows.map((row) => row.issuance_id)))
      assert.equal((after.prepare('SELECT count(*) AS n FROM signing_jobs').get() as { n: number }).n, 0, 'no signing job left')
      const used = rows.map((row) => row.jwt)
      assert.equal(new Set(used).size, used.length)
      const keys = (after.prepare(`SELECT kid, public_jwk FROM keys WHERE owner = 'club:chess'`).all() as { kid: string; public_jwk: string }[]).map((row) => ({
        kid: row.kid,
        publicJwk: JSON.parse(row.public_jwk),
      }))
      // Every 50th credential checked with the independent verifiers: the rest are the same code path.
      for (const row of rows.filter((_, i) => i % 50 === 0)) {
        const checked = await assertSignedCredential(row.jwt, { keys, email: row.recipient_email })
        assert.equal(checked.vc.id, `urn:uuid:${row.id}`)
      }
    } finally {
      after.close()
    }
  })

  it('a second signal during the drain exits at once, with 128 + its number', async () => {
    const cases = [
      ['SIGTERM', 'SIGTERM', 143],
      ['SIGINT', 'SIGINT', 130],
      ['SIGTERM', 'SIGINT', 130],
    ] as const
    // Side by side: each case has its own process.
    await Promise.all(
      cases.map(async ([first, second, code]) => {
        const dataDir = freshDataDir()
        dirs.push(dataDir)
        const server = await spawn({ CLUBCRED_DATA_DIR: dataDir })
        // A request that never ends holds the drain open (its body never completes).
        const stuck = slowPost(server.url, '/oauth/token', 'x', 'grant_type=client_credentials&padding=' + 'x'.repeat(1000))
        stuck.response.catch(() => {})
        await stuck.arrived
        const exited = exitOf(server)
        server.child.kill(first)
        await sleep(500)
        assert.ok(alive(server), `${first}: draining, waiting for the request in flight`)
        server.child.kill(second)
        assert.deepEqual(await exited, { code, signal: null }, `${first} then ${second}:\n${server.stderr}`)
        assert.deepEqual(shutdownLines(server).slice(-2), [
          { level: 'info', msg: SHUTTING_DOWN, signal: first, timeoutMs: 30000 },
          { level: 'warn', msg: 'a second signal: exiting at once', signal: second },
        ])
      }),
    )
  })

  it('the bound (CLUBCRED_SHUTDOWN_TIMEOUT_MS): a request still in flight is cut off and the process exits 1', async () => {
    const dataDir = freshDataDir()
    dirs.push(dataDir)
    const server = await spawn({ CLUBCRED_DATA_DIR: dataDir, CLUBCRED_SHUTDOWN_TIMEOUT_MS: '1000' })
    const stuck = slowPost(server.url, '/oauth/token', 'x', 'grant_type=client_credentials&padding=' + 'x'.repeat(1000))
    const outcome = stuck.response.then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    )
    await stuck.arrived
    const exited = exitOf(server)
    server.child.kill('SIGTERM')
    assert.deepEqual(await exited, { code: 1, signal: null }, server.stderr)
    assert.equal(await outcome, 'ECONNRESET', 'the request was cut off, not answered')
    assert.deepEqual(shutdownLines(server).slice(-1), [{ level: 'warn', msg: 'shutdown bound reached: requests or work cut off', timeoutMs: 1000 }])
  })

  it('every role (all, api, worker) exits 0 on SIGTERM and on SIGINT', async () => {
    const cases = ['all', 'api', 'worker'].flatMap((role) => (['SIGTERM', 'SIGINT'] as const).map((signal) => ({ role, signal })))
    await Promise.all(
      cases.map(async ({ role, signal }) => {
        const dataDir = freshDataDir()
        dirs.push(dataDir)
        const server = await spawn({ CLUBCRED_DATA_DIR: dataDir, CLUBCRED_ROLE: role })
        const exited = exitOf(server)
        server.child.kill(signal)
        assert.deepEqual(await exited, { code: 0, signal: null }, `${role} ${signal}:\n${server.stderr}`)
        assert.deepEqual(shutdownLines(server).slice(-2), [
          { level: 'info', msg: SHUTTING_DOWN, signal, timeoutMs: 30000 },
          { level: 'info', msg: 'shut down' },
        ])
      }),
    )
  })

  it('on Deno (server/deno.ts, Deno.addSignalListener): SIGTERM during a 1,000-recipient issue answers it with 200 and exits 0; a second signal exits at once', async () => {
    const dataDir = freshDataDir()
    dirs.push(dataDir)
    const client = await clubAndClient(dataDir, 'chess')
    const server = await spawn({ CLUBCRED_DATA_DIR: dataDir }, 'deno')
    const token = await accessToken(server as unknown as ServerProcess, client)
    const created = await server.http('/v2/clubs/chess/achievements', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Spring tournament', description: 'Played all seven rounds.' }),
    })
    assert.equal(created.status, 201, created.text)
    const batch = slowPost(server.url, '/v2/clubs/chess/issuances', token, recipientsBody(created.json.data.id, 'd'))
    await batch.arrived
    const exited = exitOf(server)
    server.child.kill('SIGTERM')
    for (const until = Date.now() + 10_000; !logged(server, SHUTTING_DOWN); await sleep(5)) {
      if (Date.now() > until) assert.fail(`no shutdown began within 10 s of SIGTERM:\n${server.log}`)
    }
    // Deno keeps listening while it drains (docs/shutdown.md § On Deno): a new request is told to go elsewhere.
    const late = await server.http('/v2/clubs/chess/issuances', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' })
    assert.equal(late.status, 503, late.text)
    assert.equal(late.json.code, 'shutting-down')
    assert.equal(late.headers['retry-after'], '1')
    assert.ok(alive(server), 'still draining: the batch is in flight')
    batch.finish()
    const answered = await batch.response
    assert.equal(answered.status, 200, `${JSON.stringify(answered.json)}\n${server.stderr}`)
    assert.equal(answered.json.summary.ok, RECIPIENTS)
    assert.deepEqual(await exited, { code: 0, signal: null }, server.stderr)
    assert.deepEqual(shutdownLines(server).slice(-1), [{ level: 'info', msg: 'shut down' }], 'the same JSON lines on Deno')
    const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    const atExit = db
      .prepare(
        'SELECT (SELECT count(*) FROM signing_jobs WHERE lease_until IS NOT NULL) AS leased, (SELECT count(*) FROM signing_jobs) + (SELECT count(*) FROM credentials) AS accounted',
      )
      .get() as { leased: number; accounted: number }
    db.close()
    assert.deepEqual(atExit, { leased: 0, accounted: RECIPIENTS }, 'every accepted issuance has its credential or a queued job, none left leased')

    const again = await spawn({ CLUBCRED_DATA_DIR: dataDir }, 'deno')
    const stuck = slowPost(again.url, '/oauth/token', 'x', 'grant_type=client_credentials&padding=' + 'x'.repeat(1000))
    stuck.response.catch(() => {})
    await stuck.arrived
    const killed = exitOf(again)
    again.child.kill('SIGTERM')
    await sleep(500)
    assert.ok(alive(again), 'draining, waiting for the request in flight')
    again.child.kill('SIGTERM')
    assert.deepEqual(await killed, { code: 143, signal: null }, again.stderr)
    assert.deepEqual(shutdownLines(again).slice(-1), [{ level: 'warn', msg: 'a second signal: exiting at once', signal: 'SIGTERM' }])
  })
})
