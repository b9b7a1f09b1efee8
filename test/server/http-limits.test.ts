import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { removeDataDir, startServer, type ServerProcess } from '../support/server.ts'

/**
 * The Node server exposed directly: a client that sends its headers byte by byte (slowloris) is cut off
 * after the header timeout, and sockets beyond the connection cap are closed at once. Both set through
 * the environment, on the real server process.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */

/** Opens a socket to the server; resolves once connected. */
function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Everything the socket receives until the server closes it, and when that was. */
function untilClosed(socket: Socket): Promise<{ received: string; closedAt: number }> {
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (received += chunk))
  socket.on('error', () => {})
  return new Promise((resolve) => socket.once('close', () => resolve({ received, closedAt: performance.now() })))
}

describe('the HTTP server limits of direct exposure', () => {
  let server: ServerProcess
  before(async () => {
    server = await startServer({ env: { CLUBCRED_HEADERS_TIMEOUT_MS: '1000', CLUBCRED_REQUEST_TIMEOUT_MS: '5000', CLUBCRED_MAX_CONNECTIONS: '4' } })
  })
  after(async () => {
    await server.stop()
    removeDataDir(server.dataDir)
  })

  it('cuts off a client that sends its headers a byte at a time, with 408, after the header timeout', async () => {
    const socket = await open(server.url)
    const closed = untilClosed(socket)
    const started = performance.now()
    const request = `GET /open-badges/v3/issuers/demo/did.json HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`
    let sent = 0
    // One byte every 50 ms: the whole request would take 13 s.
    const drip = setInterval(() => {
      if (socket.destroyed || sent >= request.length) return clearInterval(drip)
      socket.write(request[sent++]!)
    }, 50)
    // Without a header timeout the server would wait for the whole request: give up on it after 6 s.
    const giveUp = setTimeout(() => socket.destroy(), 6000)
    const { received, closedAt } = await closed
    clearTimeout(giveUp)
    clearInterval(drip)
    assert.ok(sent < request.length, 'cut off before the headers were complete')
    assert.match(received, /^HTTP\/1\.1 408 /)
    const seconds = (closedAt - started) / 1000
    assert.ok(seconds >= 0.9 && seconds < 4, `closed after ${seconds.toFixed(2)} s; the header timeout is 1 s`)
  })

  it('closes sockets beyond the connection cap at once, and serves again when they are gone', async () => {
    const held = await Promise.all([1, 2, 3, 4].map(() => open(server.url)))
    // The server counts a connection when it accepts it: give it a moment to accept all four.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const extra = await open(server.url)
    const giveUp = setTimeout(() => extra.destroy(new Error('still open after 2 s')), 2000)
    const { received } = await untilClosed(extra)
    clearTimeout(giveUp)
    assert.ok(!extra.errored, 'closed by the server')
    assert.equal(received, '', 'closed without an answer')
    for (const socket of held) socket.destroy()
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.equal((await server.http('/open-badges/v3/issuers/demo/did.json')).status, 200)
  })
})
