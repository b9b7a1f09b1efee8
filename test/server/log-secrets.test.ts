/**
 * The log test: the HTTP suite (test/conformance/http.suite.ts) against the Node server
 * entry (`startNodeServer`, over real HTTP on an ephemeral port) at `CLUBCRED_LOG_LEVEL=debug`, its JSON
 * log captured in-process, then more requests that put secrets where a careless log would pick them
 * up (a query string, a wrong path, a User-Agent, Basic credentials, a legacy API key). Every secret the
 * run used, every recipient's name and e-mail address and the private keys' `d` from the database are
 * then looked for in the log text: none may be there, and every request has its one line with its id.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import type { DestinationStream } from 'pino'
import { startNodeServer, type RunningServer } from '../../server/node.ts'
import { createLogger, maskSecrets } from '../../server/log.ts'
import { issuerLogging, loggedNotifier, loggedWebhookTransport } from '../../server/log-wiring.ts'
import { createKeyStore } from '../../core/keys/create-key-store.ts'
import { httpSuite } from '../conformance/http.suite.ts'
import { ROOT, freshDataDir, removeDataDir } from '../support/server.ts'
import { openSqliteFile } from '../support/temp-sqlite.ts'
import type { Issuer } from '../../index.ts'

const MASTER_KEY = 'a1'.repeat(32)

/** Everything the server logged, as written. */
let logText = ''
const destination: DestinationStream = { write: (chunk: string) => void (logText += chunk) }

/** Every value that must never be in a log line, with where it came from. */
const secrets = new Map<string, string>()
const secret = (value: unknown, what: string) => {
  // The first use names it: a token is an `access_token` before it is `Bearer credentials`.
  if (typeof value === 'string' && value.length >= 3 && !secrets.has(value)) secrets.set(value, what)
}
/** The X-Request-Id of every answer the test received, in order. */
const answeredIds: string[] = []

/** The secrets in a request: its credentials and, in a JSON body, each recipient's name and e-mail address. */
async function collectRequest(request: Request): Promise<void> {
  const authorization = request.headers.get('authorization')
  if (authorization) {
    const [scheme, credentials] = authorization.split(' ')
    secret(credentials, `${scheme} credentials`)
    if (scheme === 'Basic') for (const part of Buffer.from(credentials!, 'base64').toString().split(':')) secret(part, 'Basic part')
  }
  const body = request.body ? await request.clone().text() : ''
  if (body.startsWith('{')) {
    try {
      collectRecipients(JSON.parse(body))
    } catch {
      // The suite sends malformed JSON on purpose.
    }
  }
  if (body.includes('client_secret=')) secret(new URLSearchParams(body).get('client_secret'), 'client_secret in a form')
}

function collectRecipients(value: unknown, inRecipients = false): void {
  if (Array.isArray(value)) return value.forEach((item) => collectRecipients(item, inRecipients))
  if (value === null || typeof value !== 'object') return
  for (const [key, item] of Object.entries(value)) {
    if (inRecipients && typeof item === 'string') secret(item, `recipient ${key}`)
    if (key === 'email') secret(item, 'e-mail address')
    collectRecipients(item, inRecipients || key === 'recipients')
  }
}

/** The secrets in an answer: tokens and keys handed out, and signed credentials (they name their recipient). */
function collectResponse(text: string): void {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    // A JWT answered as text/plain is a signed credential.
    if (/^eyJ/.test(text)) secret(text, 'credential JWT')
    return
  }
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (value === null || typeof value !== 'object') return
    for (const [key, item] of Object.entries(value)) {
      if (['access_token', 'client_secret', 'api_key', 'jwt'].includes(key)) secret(item, key)
      walk(item)
    }
  }
  walk(body)
}

let running: RunningServer
let dataDir: string
let origin: string

/** The server's URLs name `localhost`; the test connects to the address it listens on. */
const toListener = (url: string) => url.replace(/^http:\/\/localhost:/, `http://127.0.0.1:`)

async function send(request: Request): Promise<Response> {
  await collectRequest(request)
  const response = await fetch(new Request(toListener(request.url), request))
  answeredIds.push(response.headers.get('x-request-id') ?? '(none)')
  const text = await response.text()
  collectResponse(text)
  return new Response(response.status === 204 || response.status === 304 || request.method === 'HEAD' ? null : text, response)
}

httpSuite('the Node server entry at CLUBCRED_LOG_LEVEL=debug', async () => {
  dataDir = freshDataDir()
  running = await startNodeServer({
    env: { PORT: '0', HOST: '127.0.0.1', CLUBCRED_DATA_DIR: dataDir, CLUBCRED_MASTER_KEY: MASTER_KEY, CLUBCRED_LOG_LEVEL: 'debug', CLUBCRED_ROLE: 'api' },
    logDestination: destination,
  })
  origin = running.url
  const real = running.issuer
  // The suite's client is made in-process: its secret is recorded here.
  const issuer: Issuer = {
    ...real,
    clients: {
      ...real.clients,
      create: async (...args: Parameters<Issuer['clients']['create']>) => {
        const client = await real.clients.create(...args)
        secret(client.client_secret, 'client_secret')
        return client
      },
    },
  }
  // Closed below, after the requests of this file's own describe.
  return { issuer, base: real.config.urls.base, send, close: async () => {} }
})

describe('the log at debug', () => {
  after(async () => {
    await running?.close()
    if (dataDir) removeDataDir(dataDir)
  })

  it('holds no secret, token, key, e-mail address or recipient name, and one line per request with its id', async () => {
    const call = (path: string, init: RequestInit = {}) => send(new Request(`${origin}${path}`, init))
    const token = [...secrets].find(([, what]) => what === 'access_token')![0]
    const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    // Secrets where a careless log would pick them up.
    await call(`/v2/clubs/chess/?access_token=${token}&email=lee%40example.org`, { headers: bearer })
    await call('/v2/clubs/chess/recipients/lee@example.org', { headers: bearer })
    await call('/v2/clubs/chess/', { headers: { ...bearer, 'user-agent': 'probe (contact: ops.lead@example.net)' } })
    secret('lee@example.org', 'e-mail in a query and a path')
    secret('ops.lead@example.net', 'e-mail in User-Agent')
    const client = await running.issuer.clients.create({ club: 'chess' })
    secret(client.client_secret, 'client_secret')
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}x`).toString('base64')
    assert.equal(
      (
        await call('/oauth/token', {
          method: 'POST',
          headers: { authorization: `Basic ${basic}` },
          body: new URLSearchParams({ grant_type: 'client_credentials' }),
        })
      ).status,
      401,
    )
    const templates = await (await call('/v2/clubs/chess/achievements', { headers: bearer })).json()
    const issued = await call('/v2/clubs/chess/issuances', {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({
        achievementFormId: templates.data[0].id,
        recipients: [
          { name: '박서연', email: 'seoyeon.park@example.kr' },
          { name: 'Jonas Quist', email: 'not-an-address' },
        ],
      }),
    })
    assert.equal(issued.status, 200)
    const { api_key: apiKey } = await running.issuer.legacy.createApiKey('chess')
    secret(apiKey, 'legacy API key')
    const legacy = await call('/open-api/achievements/forms', {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Legacy', type: 'BADGE' }),
    })
    assert.ok(legacy.status < 500, String(legacy.status))
    await running.issuer.worker.drain()

    // The private keys as the database holds them (sealed with the master key), and the master key.
    const storage = openSqliteFile(join(dataDir, 'clubcred.db'))
    const keys = createKeyStore({ storage, masterKey: Buffer.from(MASTER_KEY, 'hex') })
    for (const owner of ['platform', 'club:chess']) {
      assert.ok((await keys.publicKeys(owner)).length > 0, `${owner} has a key`)
      secret((await keys.activeKey(owner)).privateJwk.d, `${owner} private key d`)
    }
    await storage.close()
    secret(MASTER_KEY, 'master key')

    assert.ok(secrets.size >= 15, `secrets collected: ${[...secrets.values()].join(', ')}`)
    for (const what of ['access_token', 'client_secret', 'recipient name', 'recipient email', 'credential JWT', 'platform private key d']) {
      assert.ok([...secrets.values()].includes(what), `the run used a ${what}`)
    }
    const lowered = logText.toLowerCase()
    for (const [value, what] of secrets) assert.ok(!lowered.includes(value.toLowerCase()), `the log holds a ${what}`)
    assert.doesNotMatch(logText, /[^\s"@]+@[^\s"@]+\.[a-z]{2,}/i, 'no e-mail address at all')

    const lines = logText
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
    const requests = lines.filter((line) => line.msg === 'request')
    assert.ok(answeredIds.length > 15, `${answeredIds.length} requests`)
    assert.deepEqual(
      requests.map((line) => line.requestId),
      answeredIds,
      'one request line per request, in order, with the X-Request-Id of its answer',
    )
    for (const line of requests) {
      assert.ok(line.route !== undefined && typeof line.status === 'number' && typeof line.durationMs === 'number', JSON.stringify(line))
      assert.ok(line.headers && !('authorization' in line.headers), 'at debug, the safe headers only')
    }
    assert.ok(
      requests.some((line) => line.headers['user-agent'] === 'probe (contact: [email])'),
      'an address in a header is masked',
    )
    assert.ok(
      requests.some((line) => line.route === null && line.path === '/v2/clubs/*/*/*'),
      'a path no route matched is logged as its shape',
    )
  })

  it('a refused mail is logged as a warning with its error masked', async () => {
    let text = ''
    const logger = createLogger({ level: 'debug', destination: { write: (chunk: string) => void (text += chunk) } })
    const failing = loggedNotifier(
      {
        send: async (message) => {
          throw new Error(`the SMTP server rejected ${message.to} (smtp://mailer:hunter22@mail.example.com)`)
        },
      },
      logger,
    )
    await assert.rejects(failing.send({ to: 'yuna.choi@example.com', subject: 'Badge', text: 'Hi Yuna Choi', html: '' }), /rejected/)
    const [line] = text
      .split('\n')
      .filter(Boolean)
      .map((raw) => JSON.parse(raw))
    assert.equal(line.level, 'warn')
    assert.match(line.err.message, /rejected \[email\] \(smtp:\/\/\[redacted\]@mail\.example\.com\)/)
    assert.match(line.err.stack, /\n\s+at /, 'with its stack')
    for (const leaked of ['yuna.choi', 'hunter22', 'mailer', 'Yuna Choi']) assert.ok(!text.includes(leaked), leaked)
  })
})

describe('failures in the log', () => {
  it('a 500, a worker round and a webhook attempt without an answer: lines at their level, errors masked, with stacks', async () => {
    let text = ''
    const logger = createLogger({ level: 'info', destination: { write: (chunk: string) => void (text += chunk) } })
    const { http, worker } = issuerLogging(logger)
    const request = new Request('http://localhost/v2/clubs/chess/recipients/ji.woo@example.com?access_token=eyJhbGciOi.eyJzdWIi.c2ln', {
      headers: { 'x-request-id': 'req-500', authorization: 'Bearer eyJhbGciOi.eyJzdWIi.c2ln' },
    })
    http.onError!(new Error('cannot store ji.woo@example.com', { cause: new Error('Bearer ccs_abcdefghijklmnop rejected') }), request)
    worker.onError!(Object.assign(new Error('signing failed for ji.woo@example.com'), { code: 'E_SIGN', parameters: ['Ji Woo', 'ji.woo@example.com'] }))
    const transport = loggedWebhookTransport(
      {
        send: async () => {
          throw new Error('connect ECONNREFUSED')
        },
      },
      logger,
    )
    const attempt = {
      url: 'https://hooks.example.net/T0/B0/s3cr3tpath?token=q',
      headers: {},
      body: '{}',
      connectTimeoutMs: 1,
      timeoutMs: 1,
      acceptAddress: () => true,
    }
    await assert.rejects(transport.send(attempt), /ECONNREFUSED/)

    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((raw) => JSON.parse(raw))
    assert.deepEqual(
      lines.map(({ level, msg }) => ({ level, msg })),
      [
        { level: 'error', msg: 'request failed' },
        { level: 'error', msg: 'worker round failed' },
        { level: 'warn', msg: 'webhook attempt failed; it is retried' },
      ],
    )
    assert.equal(lines[0].requestId, 'req-500')
    assert.equal(lines[0].err.message, 'cannot store [email]')
    assert.equal(lines[0].err.cause.message, 'Bearer [redacted] rejected')
    assert.match(lines[0].err.stack, /\n\s+at /)
    assert.deepEqual(Object.keys(lines[1].err).sort(), ['code', 'message', 'stack', 'type'], 'no other field of the error')
    assert.equal(lines[2].host, 'hooks.example.net')
    for (const leaked of ['ji.woo', 'Ji Woo', 'eyJ', 'ccs_', 's3cr3tpath', 'token=q', 'recipients']) assert.ok(!text.includes(leaked), leaked)
  })
})

describe('the masking of error text', () => {
  it('masks every secret clubcred hands out: client secrets, legacy API keys, webhook signing secrets', () => {
    const apiKey = 'cck_0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde'
    const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/ab=='
    const text = maskSecrets(`refused ${apiKey}; signed with ${webhookSecret}; client ccs_abc-def`)
    assert.equal(text, 'refused [secret]; signed with [secret]; client [secret]')
  })
})

describe('an uncaught error', () => {
  it('is one fatal line on stdout, masked and with its stack, written before the process exits 1', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/uncaught-child.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 })
    assert.equal(child.status, 1, child.stderr)
    const lines = child.stdout
      .split('\n')
      .filter(Boolean)
      .map((raw) => JSON.parse(raw))
    assert.equal(lines.length, 1, child.stdout)
    assert.equal(lines[0].level, 'fatal')
    assert.equal(lines[0].err.message, 'cannot mail [email]')
    assert.match(lines[0].err.stack, /uncaught-child\.ts/)
    assert.ok(!child.stdout.includes('lee.uncaught') && !child.stderr.includes('lee.uncaught'), 'the address nowhere')
  })
})
