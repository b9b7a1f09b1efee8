/**
 * The node:http listener through the real server process, on raw sockets:
 * a malformed Host header is a 400 problem with one warning and its request line in the log, and a refused body leaves a keep-alive
 * connection usable or closes it cleanly, never resets it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { rawConnection } from '../support/raw-http.ts'
import { accessToken } from '../support/tokens.ts'
import { adminClubAndClient, logLines, openAdmin, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'

describe('the node listener', () => {
  let server: ServerProcess
  let token: string
  let host: string
  before(async () => {
    server = await startServer()
    host = new URL(server.url).host
    const admin = openAdmin(server.dataDir)
    const client = await adminClubAndClient(admin, 'raw')
    await admin.close()
    token = await accessToken(server, client)
  })
  after(async () => {
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
  })

  for (const bad of ['localhost:abc', 'a b', '[::1', 'x@y', 'localhost:99999', '']) {
    it(`Host ${JSON.stringify(bad)} is 400 invalid-host as problem+json, logged once as a warning without a stack`, async () => {
      const before = server.log.length
      const connection = await rawConnection(server.url)
      await connection.write(`GET /v2/clubs/raw/ HTTP/1.1\r\nHost: ${bad}\r\nAuthorization: Bearer ${token}\r\n\r\n`)
      const response = await connection.response()
      connection.destroy()
      assert.equal(response.status, 400, response.body)
      assert.equal(response.headers['content-type'], 'application/problem+json')
      assert.equal(response.headers['x-content-type-options'], 'nosniff')
      const problem = JSON.parse(response.body)
      assert.equal(problem.code, 'invalid-host')
      assert.equal(problem.type, 'https://clubcred.dev/problems/invalid-host')
      assert.equal(problem.status, 400)
      await new Promise((resolve) => setTimeout(resolve, 50))
      const logged = logLines({ log: server.log.slice(before) })
      assert.ok(
        logged.every((line) => line.err === undefined && line.requestId === problem.requestId),
        'no stack trace, its request id',
      )
      assert.equal(logged.filter((line) => line.level === 'warn').length, 1, server.log.slice(before))
      assert.match(logged.find((line) => line.level === 'warn')!.msg, /Host/)
      assert.deepEqual(
        logged.filter((line) => line.msg === 'request').map(({ method, route, status }) => ({ method, route, status })),
        [{ method: 'GET', route: null, status: 400 }],
        'and its request line',
      )
    })
  }

  it('a good Host with a port, upper case, or IPv6 literal still reaches the routes', async () => {
    for (const good of [host, host.toUpperCase(), `[::1]:${new URL(server.url).port}`]) {
      const connection = await rawConnection(server.url)
      await connection.write(`GET /v2/clubs/raw/ HTTP/1.1\r\nHost: ${good}\r\nAuthorization: Bearer ${token}\r\n\r\n`)
      const response = await connection.response()
      connection.destroy()
      assert.equal(response.status, 200, `${good}: ${response.body}`)
    }
  })

  const refused = (length: number) =>
    `POST /v2/clubs/raw/achievements HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`
  const second = `GET /v2/clubs/raw/ HTTP/1.1\r\nHost: ${'HOST'}\r\nAuthorization: Bearer TOKEN\r\n\r\n`
  const secondRequest = () => second.replace('HOST', host).replace('TOKEN', token)

  it('a declared oversized body that is sent anyway: 413, then the next request on the socket is answered', async () => {
    const size = 2 * 1024 * 1024
    const connection = await rawConnection(server.url)
    await connection.write(refused(size))
    await connection.write(new Uint8Array(size).fill(0x20))
    await connection.write(secondRequest())
    const first = await connection.response()
    assert.equal(first.status, 413)
    assert.equal(JSON.parse(first.body).code, 'payload-too-large')
    const next = await connection.response()
    assert.equal(next.status, 200, next.body)
    assert.equal(connection.ending, 'open')
    connection.destroy()
  })

  it('a declared body far beyond what is drained: 413 with Connection: close, then a clean close', async () => {
    const connection = await rawConnection(server.url)
    await connection.write(refused(1024 * 1024 * 1024))
    await connection.write(new Uint8Array(64 * 1024).fill(0x20))
    const first = await connection.response()
    assert.equal(first.status, 413)
    assert.equal(first.headers.connection, 'close')
    assert.equal(await connection.closed(), 'end', 'closed with a FIN, not reset')
  })

  it('a chunked body that grows too large: 413, then the connection is usable or cleanly closed', async () => {
    const connection = await rawConnection(server.url)
    await connection.write(
      `POST /v2/clubs/raw/achievements HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    )
    const chunk = 256 * 1024
    for (let sent = 0; sent <= 1024 * 1024; sent += chunk) {
      await connection.write(`${chunk.toString(16)}\r\n${' '.repeat(chunk)}\r\n`)
    }
    await connection.write('0\r\n\r\n')
    await connection.write(secondRequest())
    const first = await connection.response()
    assert.equal(first.status, 413)
    if (first.headers.connection === 'close') {
      assert.equal(await connection.closed(), 'end')
    } else {
      const next = await connection.response()
      assert.equal(next.status, 200, next.body)
    }
    connection.destroy()
  })
})
