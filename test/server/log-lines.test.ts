/**
 * The process's output as a log collector reads it (docs/logs.md § Where it goes), with the real server
 * process on a fresh data dir at `CLUBCRED_LOG_LEVEL=debug`: start (the first-start banner, human, before
 * the listening line), requests that put credentials where a careless log picks them up (`User-Agent`
 * forms that used to slip through the masking, a JWT across the 200-character cut, a client secret as
 * `X-Request-Id`), one that logs a warning (a refused Host), then SIGTERM. Every line after the listening
 * line, on stderr and stdout, is one JSON object with a level and a message; none holds a credential.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { after, before, describe, it } from 'node:test'
import { accessToken } from '../support/tokens.ts'
import { ROOT, demoClientFrom, linesAfterListening, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'
import { rawConnection } from '../support/raw-http.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('every log line after the listening line is JSON', () => {
  let server: ServerProcess
  before(async () => {
    server = await startServer({ env: { CLUBCRED_LOG_LEVEL: 'debug' } })
  })
  after(async () => {
    await server?.kill()
    if (server) removeDataDir(server.dataDir)
  })

  it('start, serve, SIGTERM: one JSON object per line with level and msg, the shutdown included, and no credential in any', async () => {
    const client = demoClientFrom(server.stderr)
    assert.ok(client, `the first start prints the demo client before the listening line:\n${server.stderr}`)
    const token = await accessToken(server, client)
    assert.match(token, /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/, 'an access token is a JWT')
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')
    const otherBasic = Buffer.from('deploy:hunter2-hunter2').toString('base64')
    const padding = `probe/1.0 (${'x'.repeat(180)})`

    const userAgents: [sent: string, logged: string][] = [
      [`ua-basic Basic ${basic}`, 'ua-basic Basic [redacted]'],
      [`ua-basic Basic ${otherBasic}`, 'ua-basic Basic [redacted]'],
      [`probe Basic:${otherBasic}`, 'probe Basic [redacted]'],
      [`probe Basic%20${otherBasic}`, 'probe Basic [redacted]'],
      // The token starts before character 200 and ends after it: cut first, its claims would show.
      [`${padding} ${token}`, `${padding} [token]`],
    ]
    const ids: string[] = []
    for (const [sent] of userAgents) {
      const response = await server.http('/v2/clubs/demo/', { headers: { authorization: `Bearer ${token}`, 'user-agent': sent } })
      assert.equal(response.status, 200, response.text)
      ids.push(response.headers['x-request-id']!)
    }

    // A client secret sent as the request id: not echoed, not logged; a new id instead.
    const misplaced = await server.http('/v2/clubs/demo/nowhere', { headers: { 'x-request-id': client.client_secret } })
    assert.equal(misplaced.status, 404)
    assert.match(misplaced.headers['x-request-id'] ?? '', UUID)
    assert.equal(misplaced.json.requestId, misplaced.headers['x-request-id'])

    // A refused Host: a warning line.
    const connection = await rawConnection(server.url)
    await connection.write('GET /v2/clubs/demo/ HTTP/1.1\r\nHost: a b\r\nX-Request-Id: bad-host-7\r\n\r\n')
    assert.equal((await connection.response()).status, 400)
    connection.destroy()

    assert.equal(await server.stop(), 0, server.stderr)
    const lines = linesAfterListening(server)

    const shutdown = lines.filter((line) => line.msg === 'shutting down; a second signal exits at once')
    assert.deepEqual(
      shutdown.map(({ level, signal, timeoutMs }) => ({ level, signal, timeoutMs })),
      [{ level: 'info', signal: 'SIGTERM', timeoutMs: 30000 }],
    )
    assert.deepEqual({ level: lines.at(-1)!.level, msg: lines.at(-1)!.msg }, { level: 'info', msg: 'shut down' }, 'the last line')
    assert.ok(
      lines.some((line) => line.level === 'warn' && line.requestId === 'bad-host-7' && /invalid-host/.test(line.msg)),
      'the refused Host is a warning line',
    )
    const requests = new Map(lines.filter((line) => line.msg === 'request').map((line) => [line.requestId, line]))
    assert.deepEqual(
      ids.map((id) => (requests.get(id)?.headers as Record<string, string> | undefined)?.['user-agent']),
      userAgents.map(([, logged]) => logged),
    )
    assert.equal(requests.get(misplaced.headers['x-request-id']!)?.status, 404, 'the misplaced secret request is logged under its new id')

    const written = `${server.stderr.split(/^clubcred listening on \S+\n/m)[1]}${server.log}`
    const [, claims] = token.split('.')
    for (const [value, what] of [
      [client.client_secret, 'the client secret'],
      [basic, "the client's Basic credentials"],
      [otherBasic, 'the other Basic credentials'],
      [token, 'the access token'],
      [claims!.slice(0, 12), "the access token's claims"],
    ] as const) {
      assert.ok(!written.includes(value), `${what} after the listening line`)
    }
  })
})

describe("the runtime's own warnings", () => {
  it("are warn lines of the server's logger on stdout, not text on stderr", () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/warning-child.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 })
    assert.equal(child.status, 0, child.stderr)
    assert.equal(child.stderr, '', 'nothing on stderr')
    const lines = linesAfterListening({ stderr: 'clubcred listening on http://test\n', log: child.stdout })
    assert.deepEqual(
      lines.map(({ level, msg, err }) => ({ level, msg, type: (err as { type: string }).type, code: (err as { code: string }).code })),
      [{ level: 'warn', msg: 'runtime warning', type: 'DeprecationWarning', code: 'DEP0999' }],
    )
  })
})
