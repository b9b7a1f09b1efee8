import { after, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { buildConnector } from 'undici'
import { checkedConnector, createWebhookTransport } from '../../adapters/node/webhook-transport.ts'
import { addressRule } from '../../core/webhooks/url.ts'
import type { WebhookRequest } from '../../core/ports/webhook-transport.ts'

/** A loopback receiver whose answer each test sets, counting requests and TCP connections. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen = { requests: 0, connections: 0 }
  const server: Server = createServer((req, res) => {
    seen.requests++
    req.resume().on('end', () => answer(req, res))
  })
  server.on('connection', () => seen.connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const attempt = (url: string, rest: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': '1' },
  body: '{"type":"issuance.issued"}',
  connectTimeoutMs: 2000,
  timeoutMs: 2000,
  acceptAddress: addressRule(true),
  ...rest,
})

describe('the Node webhook transport (undici)', () => {
  const transport = createWebhookTransport()
  after(() => transport.close())

  it('answers with the status; attempts to one receiver reuse a kept-alive connection', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end())
    try {
      for (let i = 0; i < 10; i++) assert.deepEqual(await transport.send(attempt(r.url)), { status: 204 })
      assert.equal(r.seen.requests, 10)
      // The next attempt may start before the last one's socket is back in the pool: a second one, not ten.
      assert.ok(r.seen.connections <= 2, `${r.seen.connections} connections for 10 attempts`)
    } finally {
      await r.close()
    }
  })

  it('never follows a redirect: a 3xx is the answer, its target is not asked', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end())
    const r = await receiver((_req, res) => res.writeHead(307, { location: target.url }).end())
    try {
      assert.deepEqual(await transport.send(attempt(r.url)), { status: 307 })
      assert.equal(target.seen.requests, 0)
    } finally {
      await Promise.all([r.close(), target.close()])
    }
  })

  it('reads a few KiB of an answer and no more: a receiver that streams without end still gives its status', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const chunk = 'x'.repeat(64 * 1024)
      const pump = setInterval(() => res.write(chunk), 5)
      res.on('close', () => clearInterval(pump))
    })
    try {
      assert.deepEqual(await transport.send(attempt(r.url)), { status: 200 })
    } finally {
      await r.close()
    }
  })

  it('fails an attempt with no answer within the total timeout', async () => {
    const r = await receiver(() => {})
    try {
      await assert.rejects(transport.send(attempt(r.url, { timeoutMs: 300 })), { message: 'timeout: no answer within 300 ms' })
    } finally {
      await r.close()
    }
  })

  it('fails an attempt whose connection does not open within the connect timeout', async () => {
    const stalled = createWebhookTransport({ lookup: () => {} })
    // undici's timers do not hold the process open; a server's listener would.
    const alive = setInterval(() => {}, 1000)
    try {
      await assert.rejects(stalled.send(attempt('http://receiver.test/hook', { connectTimeoutMs: 200, timeoutMs: 5000 })), {
        message: 'timeout: no connection within 200 ms',
      })
    } finally {
      clearInterval(alive)
      await stalled.close()
    }
  })

  it('refuses a literal address, and a name resolving to one, that the rule refuses; nothing is sent', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end())
    const port = new URL(r.url).port
    const toLoopback = createWebhookTransport({ lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) })
    try {
      await assert.rejects(transport.send(attempt(r.url, { acceptAddress: addressRule(false) })), { message: 'address refused: 127.0.0.1' })
      await assert.rejects(toLoopback.send(attempt(`http://receiver.test:${port}/hook`, { acceptAddress: addressRule(false) })), {
        message: /^address refused: receiver\.test resolves to 127\.0\.0\.1/,
      })
      assert.equal(r.seen.requests, 0)
      assert.deepEqual(await toLoopback.send(attempt(`http://receiver.test:${port}/hook`)), { status: 204 })
    } finally {
      await Promise.all([toLoopback.close(), r.close()])
    }
  })

  it('refuses a loopback URL in every spelling at connection time, the way the URL parser reads it, and sends it with the opt-in', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end())
    const port = new URL(r.url).port
    try {
      for (const host of ['2130706433', '0177.0.0.1', '0x7f.0.0.1', '0x7f000001', '127.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
        const url = `http://${host}:${port}/hook`
        await assert.rejects(
          transport.send(attempt(url, { acceptAddress: addressRule(false) })),
          { message: /^address refused: (127\.0\.0\.1|::ffff:7f00:1)$/ },
          url,
        )
      }
      assert.equal(r.seen.connections, 0)
      for (const host of ['2130706433', '0x7f.1', '127.1']) assert.deepEqual(await transport.send(attempt(`http://${host}:${port}/hook`)), { status: 204 })
      assert.equal(r.seen.requests, 3)
    } finally {
      await r.close()
    }
  })

  it('refuses localhost as the system resolver answers it: every address it resolves to is checked', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end())
    try {
      await assert.rejects(transport.send(attempt(`http://localhost:${new URL(r.url).port}/hook`, { acceptAddress: addressRule(false) })), {
        message: /^address refused: localhost resolves to (127\.0\.0\.1|::1)$/,
      })
      assert.equal(r.seen.connections, 0)
    } finally {
      await r.close()
    }
  })

  it('checks the address a connection actually reached, also when its lookup was not checked, before any byte is sent', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end())
    const unchecked = buildConnector({ lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) })
    const open = (rule: WebhookRequest['acceptAddress']) =>
      new Promise<{ error: Error | null; socket: Socket | null }>((resolve) =>
        checkedConnector(unchecked, rule)({ hostname: 'receiver.test', protocol: 'http:', port: new URL(r.url).port }, (error, socket) =>
          resolve({ error, socket }),
        ),
      )
    try {
      const refused = await open(addressRule(false))
      assert.equal(refused.error?.message, 'address refused: receiver.test connected to 127.0.0.1')
      assert.equal(refused.socket, null)
      const allowed = await open(addressRule(true))
      assert.equal(allowed.socket?.remoteAddress, '127.0.0.1')
      allowed.socket?.destroy()
      // Each connection reached the receiver; the refused one closed before its request.
      assert.equal(r.seen.connections, 2)
      assert.equal(r.seen.requests, 0)
    } finally {
      await r.close()
    }
  })
})
