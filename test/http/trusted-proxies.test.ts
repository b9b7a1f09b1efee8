import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { createTrustedProxies } from '../../adapters/http/trusted-proxies.ts'
import { clientAddressOf } from '../../adapters/http/client-address.ts'
import { toNodeListener } from '../../adapters/node/index.ts'
import { VARIABLES } from '../../server/environment.ts'

describe('the client address behind trusted proxies', () => {
  const proxies = createTrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8'])

  it('a peer that is no trusted proxy is the client, whatever X-Forwarded-For says', () => {
    assert.equal(proxies.clientAddress('203.0.113.9', '198.51.100.1'), '203.0.113.9')
    assert.equal(createTrustedProxies([]).clientAddress('127.0.0.1', '198.51.100.1'), '127.0.0.1')
  })

  it('through trusted proxies, the rightmost hop that is not one is the client; what the client wrote left of it is ignored', () => {
    assert.equal(proxies.clientAddress('127.0.0.1', '198.51.100.1'), '198.51.100.1')
    assert.equal(proxies.clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3'), '198.51.100.1')
    assert.equal(proxies.clientAddress('::ffff:127.0.0.1', '2001:db8::7, fd00::1'), '2001:db8::7')
    assert.equal(proxies.clientAddress('127.0.0.1', '[2001:db8::7]:4711'), '2001:db8::7')
    assert.equal(proxies.clientAddress('127.0.0.1', '198.51.100.1:4711'), '198.51.100.1')
  })

  it('without a header, or with a hop that is no address, the nearest trusted hop is the client', () => {
    assert.equal(proxies.clientAddress('127.0.0.1', null), '127.0.0.1')
    assert.equal(proxies.clientAddress('127.0.0.1', 'unknown, 10.0.0.7'), '10.0.0.7')
    assert.equal(proxies.clientAddress('127.0.0.1', '0x7f.1'), '127.0.0.1')
    assert.equal(proxies.clientAddress('127.0.0.1', '10.0.0.7, 10.0.0.8'), '10.0.0.7')
  })

  it('CLUBCRED_TRUSTED_PROXIES takes addresses and blocks, and names an entry that is neither', () => {
    assert.deepEqual(VARIABLES.trustedProxies.parse('127.0.0.1, 10.0.0.0/8,::1'), ['127.0.0.1', '10.0.0.0/8', '::1'])
    assert.throws(() => VARIABLES.trustedProxies.parse('127.0.0.1,proxy.example'), /"proxy\.example"/)
    assert.throws(() => VARIABLES.trustedProxies.parse('10.0.0.0/33'), /10\.0\.0\.0\/33/)
  })

  it('the Node listener notes the client address it reads through the proxies', async () => {
    const seen: string[] = []
    const handler = (req: Request) => {
      seen.push(clientAddressOf(req))
      return Promise.resolve(new Response('ok'))
    }
    for (const [trusted, expected] of [
      [['127.0.0.1'], '198.51.100.1'],
      [[], '127.0.0.1'],
    ] as const) {
      const server = createServer(toNodeListener(handler, { trustedProxies: createTrustedProxies(trusted) }))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      try {
        const { port } = server.address() as AddressInfo
        const answer = await request(`http://127.0.0.1:${port}/`, { headers: { 'x-forwarded-for': '198.51.100.1' } })
        await answer.body.text()
        assert.equal(seen.pop(), expected)
      } finally {
        await new Promise((resolve) => server.close(resolve))
      }
    }
  })
})
