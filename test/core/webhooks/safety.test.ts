import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { isPublicAddress } from '../../../core/webhooks/address.ts'
import { ProblemError } from '../../../core/errors.ts'
import { startReceiver } from '../../support/webhook-receiver.ts'
import { webhookHarness } from './support.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

describe('webhook address rule', () => {
  it('refuses loopback, private, link-local, metadata and reserved addresses, v4 and v6', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      'not-an-ip',
    ]) {
      assert.equal(isPublicAddress(address), false, address)
    }
    for (const address of ['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isPublicAddress(address), true, address)
    }
  })
})

describe('webhook URL safety', () => {
  async function harness(options: Parameters<typeof webhookHarness>[0]) {
    const h = webhookHarness(options)
    cleanups.push(() => h.close())
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
    return h
  }

  it('without the opt-in, create refuses http:// and private, loopback, link-local and metadata hosts', async () => {
    const h = await harness({ webhooks: { allowPrivate: false } })
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.0.0.8/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://localhost/x',
      'https://a.localhost/x',
      'https://metadata.google.internal/x',
      'https://user:pw@hooks.example.com/x',
      'ftp://x.example/',
    ]) {
      await assert.rejects(h.issuer.webhooks.create({ club: 'chess', url }), (e) => e instanceof ProblemError && e.code === 'validation-failed', url)
    }
    assert.deepEqual(await h.issuer.webhooks.list('chess'), [])
    const ok = await h.issuer.webhooks.create({ club: 'chess', url: 'https://hooks.example.com/x' })
    assert.match(ok.secret, /^whsec_[A-Za-z0-9+/]{32}$/)
  })

  it('with the opt-in, create takes http:// on loopback', async () => {
    const h = await harness({ webhooks: { allowPrivate: true } })
    assert.equal((await h.issuer.webhooks.create({ club: 'chess', url: 'http://127.0.0.1:9/x' })).url, 'http://127.0.0.1:9/x')
  })

  it('a DNS name that resolves to loopback is refused at send time, and nothing reaches the receiver', async () => {
    const r = await startReceiver()
    cleanups.push(() => r.close())
    const lookups: string[] = []
    // The injected lookup plays a DNS server that answers loopback for a public-looking name.
    const h = await harness({
      webhooks: { allowPrivate: false },
      transport: {
        lookup: (host, _options, callback) => {
          lookups.push(host)
          callback(null, [{ address: '127.0.0.1', family: 4 }])
        },
      },
    })
    const hook = await h.issuer.webhooks.create({ club: 'chess', url: `https://rebind.example.com:${r.port}/hooks` })
    const templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
    await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: [{ name: 'A', email: 'a@chess.example' }] })
    await h.issuer.worker.drain()
    assert.deepEqual(lookups, ['rebind.example.com', 'rebind.example.com'])
    assert.equal(r.received.length, 0)
    const log = await h.issuer.webhooks.deliveries(hook.id)
    assert.equal(log.length, 2)
    assert.ok(
      log.every((d) => d.state === 'pending' && d.lastStatus === null && /address refused: rebind.example.com resolves to 127.0.0.1/.test(d.lastError!)),
    )
  })
})
