/**
 * Request ids and log levels through the real server process (docs/logs.md): `X-Request-Id` kept when
 * sane and generated otherwise, on every answer (problems, OAuth errors, documents, share pages, HEAD),
 * as `requestId` in problem documents, and in the request's line on stdout; `CLUBCRED_LOG_LEVEL` sets
 * what is logged and a wrong value stops the start naming the variable.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { freshDataDir, logLines, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'
import { assertProblem } from '../support/assertions.ts'
import { rawConnection } from '../support/raw-http.ts'
import type { Json } from '../support/json.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The request line of `requestId`, once the server wrote it. */
async function lineOf(server: ServerProcess, requestId: string): Promise<Json> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const lines = logLines(server).filter((line) => line.msg === 'request' && line.requestId === requestId)
    if (lines.length > 0) {
      assert.equal(lines.length, 1, `one line for ${requestId}`)
      return lines[0]!
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  assert.fail(`no request line for ${requestId} in:\n${server.log}`)
}

describe('request ids through the real server process', () => {
  let server: ServerProcess
  before(async () => {
    server = await startServer()
  })
  after(async () => {
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
  })

  it('a sane X-Request-Id is echoed, named in the problem document and in the request line', async () => {
    const sent = 'edge-7f3a.9_B'
    const response = await server.http('/v2/clubs/demo/', { headers: { 'x-request-id': sent } })
    assertProblem(response, 401, 'invalid-token')
    assert.equal(response.headers['x-request-id'], sent)
    assert.equal(response.json.requestId, sent)
    const line = await lineOf(server, sent)
    assert.deepEqual(
      { level: line.level, method: line.method, route: line.route, status: line.status },
      { level: 'info', method: 'GET', route: '/v2/clubs/{clubDomain}/', status: 401 },
    )
    assert.equal(typeof line.durationMs, 'number')
    assert.equal(line.headers, undefined, 'no headers at the default level, info')
  })

  it('a Host header the listener refuses: its own answer has the id, and the address in it is masked in the log', async () => {
    const connection = await rawConnection(server.url)
    await connection.write('GET /v2/clubs/demo/ HTTP/1.1\r\nHost: mi.rae@example.com\r\nX-Request-Id: bad-host-1\r\n\r\n')
    const response = await connection.response()
    connection.destroy()
    assert.equal(response.status, 400)
    assert.equal(response.headers['x-request-id'], 'bad-host-1')
    assert.equal(JSON.parse(response.body).requestId, 'bad-host-1')
    assert.equal((await lineOf(server, 'bad-host-1')).status, 400)
    const warning = logLines(server).find((line) => line.level === 'warn' && line.requestId === 'bad-host-1')
    assert.match(warning?.msg ?? '', /invalid-host: GET with Host "\[email\]"/)
    assert.ok(!server.log.includes('mi.rae'))
  })

  it("a public answer lets a verifier's page on another origin read its id", async () => {
    const response = await server.http('/open-badges/v3/achievements/999999/verify', { headers: { origin: 'https://verifier.example' } })
    assert.equal(response.headers['access-control-allow-origin'], '*')
    assert.equal(response.headers['access-control-expose-headers'], 'X-Request-Id')
    assert.match(response.headers['x-request-id'] ?? '', UUID)
  })

  for (const insane of ['two words', 'x'.repeat(129), '<script>', 'a/b', 'é']) {
    it(`X-Request-Id ${JSON.stringify(insane.slice(0, 20))} is replaced by a generated id`, async () => {
      const response = await request(`${server.url}/v2/nowhere`, { headers: { 'x-request-id': insane } })
      const body = (await response.body.json()) as { requestId: string }
      const id = response.headers['x-request-id'] as string
      assert.match(id, UUID)
      assert.equal(body.requestId, id)
      assert.equal((await lineOf(server, id)).path, '/v2/*')
      assert.ok(!server.log.includes(insane), 'the refused id is not logged')
    })
  }

  it('every answer has an id, a new one per request: a document, an OAuth error, HEAD, a share page, a 405', async () => {
    const ids = new Set<string>()
    const answers = [
      await server.http('/openapi.json'),
      await server.http('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }),
      await server.http('/v2/clubs/demo/', { method: 'HEAD' }),
      await server.http('/v2/clubs/demo/', { method: 'DELETE' }),
    ]
    const share = await request(`${server.url}/credentials/00000000-0000-4000-8000-000000000000`, {
      headers: { host: `demo.localhost:${new URL(server.url).port}` },
    })
    await share.body.text()
    assert.match(share.headers['content-type'] as string, /^text\/html/)
    const statuses = [...answers.map((answer) => answer.status), share.statusCode]
    assert.deepEqual(statuses, [200, 401, 401, 405, 404])
    for (const id of [...answers.map((answer) => answer.headers['x-request-id']), share.headers['x-request-id'] as string]) {
      assert.match(id ?? '', UUID)
      ids.add(id!)
    }
    assert.equal(ids.size, 5, 'five requests, five ids')
    const routes = await Promise.all([...ids].map(async (id) => (await lineOf(server, id)).route))
    assert.deepEqual(routes, ['/openapi.json', '/oauth/token', '/v2/clubs/{clubDomain}/', '/v2/clubs/{clubDomain}/', 'share:/credentials/{credentialId}'])
    const openApi = answers[0]!.json
    assert.ok(openApi.components.schemas.Problem.required.includes('requestId'), 'the Problem schema has requestId')
    for (const operations of Object.values(openApi.paths) as Record<string, Json>[]) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values(operation.responses) as Json[]) assert.ok(response.headers['X-Request-Id'], operation.operationId)
      }
    }
    const documented = Object.keys(openApi.paths)
    for (const route of routes.filter((route) => !route.startsWith('share:'))) {
      assert.ok(documented.includes(route), `${route} is a path of the OpenAPI document`)
    }
  })
})

describe('request ids on a worker process (CLUBCRED_ROLE=worker)', () => {
  it('its /healthz and its 404 carry the id, and each has its request line', async () => {
    const server = await startServer({ env: { CLUBCRED_ROLE: 'worker' } })
    try {
      const health = await server.http('/healthz', { headers: { 'x-request-id': 'hz-1' } })
      assert.equal(health.status, 200)
      assert.equal(health.headers['x-request-id'], 'hz-1')
      const stray = await server.http('/v2/clubs/demo/')
      assertProblem(stray, 404, 'route-not-found')
      assert.deepEqual(
        [await lineOf(server, 'hz-1'), await lineOf(server, stray.json.requestId)].map(({ route, path, status }) => ({ route, path, status })),
        [
          { route: '/healthz', path: undefined, status: 200 },
          { route: null, path: '/*/*/*/', status: 404 },
        ],
      )
    } finally {
      assert.equal(await server.stop(), 0, server.stderr)
      removeDataDir(server.dataDir)
    }
  })
})

describe('request ids on the metrics port (CLUBCRED_METRICS_PORT)', () => {
  it('its /metrics and its 404 carry the id, and each has its request line', async () => {
    const server = await startServer({ env: { CLUBCRED_METRICS_PORT: '0' } })
    try {
      const url = /clubcred: metrics on (\S+)\n/.exec(server.stderr)?.[1]
      assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, server.stderr)
      const scrape = await request(url!, { headers: { 'x-request-id': 'scrape-1' } })
      await scrape.body.text()
      assert.equal(scrape.statusCode, 200)
      assert.equal(scrape.headers['x-request-id'], 'scrape-1')
      const stray = await request(new URL('/v2/clubs/kim@example.org/', url!))
      const problem = (await stray.body.json()) as { code: string; requestId: string }
      assert.deepEqual([stray.statusCode, problem.code], [404, 'route-not-found'])
      assert.match(problem.requestId, UUID)
      assert.equal(stray.headers['x-request-id'], problem.requestId)
      assert.deepEqual(
        [await lineOf(server, 'scrape-1'), await lineOf(server, problem.requestId)].map(({ route, path, status }) => ({ route, path, status })),
        [
          { route: '/metrics', path: undefined, status: 200 },
          { route: null, path: '/*/*/*/', status: 404 },
        ],
      )
      assert.ok(!server.log.includes('kim@example.org'))
    } finally {
      assert.equal(await server.stop(), 0, server.stderr)
      removeDataDir(server.dataDir)
    }
  })
})

describe('CLUBCRED_LOG_LEVEL', () => {
  it('warn: requests answered below 500 are not logged', async () => {
    const server = await startServer({ env: { CLUBCRED_LOG_LEVEL: 'warn' } })
    try {
      const response = await server.http('/v2/nowhere')
      assert.equal(response.status, 404)
      await new Promise((resolve) => setTimeout(resolve, 100))
      assert.deepEqual(logLines(server), [], 'nothing below warn')
    } finally {
      assert.equal(await server.stop(), 0, server.stderr)
      removeDataDir(server.dataDir)
    }
  })

  it('a wrong value stops the start with a message naming the variable', async (t) => {
    const dataDir = freshDataDir()
    t.after(() => removeDataDir(dataDir))
    await assert.rejects(
      startServer({ dataDir, env: { CLUBCRED_LOG_LEVEL: 'verbose' } }),
      /exited with 1 before listening[^]*clubcred: cannot start: CLUBCRED_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got verbose/,
    )
  })
})
