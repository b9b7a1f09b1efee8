import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { ProblemError } from '../../../core/errors.ts'
import { startReceiver } from '../../support/webhook-receiver.ts'
import { webhookHarness } from '../../support/webhook-harness.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
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

  it('create and update refuse a non-public host in every encoding a URL may spell it, as the URL parser reads it', async () => {
    const h = await harness({ webhooks: { allowPrivate: false } })
    const refused = [
      'https://2130706433/x',
      'https://0177.0.0.1/x',
      'https://0x7f.0.0.1/x',
      'https://0x7f000001/x',
      'https://127.1/x',
      'https://0xa9fea9fe/latest',
      'https://3232235777/x',
      'https://100.64.0.1/x',
      'https://198.18.0.1/x',
      'https://192.0.2.1/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:0:7f00:1]/x',
      'https://[::127.0.0.1]/x',
      'https://[2002:7f00:1::]/x',
      'https://[2002:a00:1::]/x',
      'https://[2001:0::1]/x',
      'https://[64:ff9b::7f00:1]/x',
      'https://[100::1]/x',
      'https://[fd00:ec2::254]/x',
      'https://[fe80::1]/x',
      'https://[ff02::1]/x',
      'https://[2001:db8::1]/x',
    ]
    for (const url of refused) {
      await assert.rejects(h.issuer.webhooks.create({ club: 'chess', url }), (e) => e instanceof ProblemError && e.code === 'validation-failed', url)
    }
    assert.deepEqual(await h.issuer.webhooks.list('chess'), [])
    for (const [url, stored] of [
      ['https://134744072/x', 'https://8.8.8.8/x'],
      ['https://[2606:4700::1111]/x', 'https://[2606:4700::1111]/x'],
      ['https://[64:ff9b::8.8.8.8]/x', 'https://[64:ff9b::808:808]/x'],
    ]) {
      assert.equal((await h.issuer.webhooks.create({ club: 'chess', url: url! })).url, stored)
    }
    const hook = (await h.issuer.webhooks.list('chess')).find((w) => w.url === 'https://8.8.8.8/x')!
    for (const url of refused) {
      await assert.rejects(h.issuer.webhooks.update(hook.id, { url }), (e) => e instanceof ProblemError && e.code === 'validation-failed', url)
    }
    assert.deepEqual((await h.issuer.webhooks.list('chess')).map((w) => w.url).sort(), [
      'https://8.8.8.8/x',
      'https://[2606:4700::1111]/x',
      'https://[64:ff9b::808:808]/x',
    ])
  })

  it('a name that resolves to any non-public address, in any encoding, is refused at send time, and nothing reaches the receiver', async () => {
    const r = await startReceiver()
    cleanups.push(() => r.close())
    // The injected lookup plays a DNS server that answers these for public-looking names. An address let
    // through would be connected to, and the attempt would fail with a connection error instead.
    const answers: Record<string, string[]> = {
      'v4.example.com': ['127.0.0.1'],
      'mapped.example.com': ['::ffff:127.0.0.1'],
      'translated.example.com': ['::ffff:0:7f00:1'],
      'compatible.example.com': ['::7f00:1'],
      '6to4.example.com': ['2002:7f00:1::'],
      '6to4-private.example.com': ['2002:a00:1::'],
      'teredo.example.com': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
      'discard.example.com': ['100::1'],
      'cgnat.example.com': ['100.64.0.1'],
      'benchmark.example.com': ['198.18.0.1'],
      'mixed.example.com': ['93.184.216.34', '2606:4700::1111', '10.0.0.1'],
    }
    const lookups: string[] = []
    const h = await harness({
      webhooks: { allowPrivate: false },
      transport: {
        lookup: (host, _options, callback) => {
          lookups.push(host)
          callback(
            null,
            (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
          )
        },
      },
    })
    const hooks = new Map<string, string>()
    for (const name of Object.keys(answers)) hooks.set((await h.issuer.webhooks.create({ club: 'chess', url: `https://${name}:${r.port}/hooks` })).id, name)
    const templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
    await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: [{ name: 'A', email: 'a@chess.example' }] })
    await h.issuer.worker.drain()
    assert.equal(r.received.length, 0)
    assert.equal(lookups.length, 2 * hooks.size)
    for (const [id, name] of hooks) {
      const log = await h.issuer.webhooks.deliveries(id)
      assert.equal(log.length, 2, name)
      const refused = answers[name]!.find((address) => address !== '93.184.216.34' && address !== '2606:4700::1111')!
      for (const d of log) {
        assert.equal(d.state, 'pending', name)
        assert.equal(d.lastStatus, null, name)
        assert.equal(d.lastError, `address refused: ${name} resolves to ${refused}`, name)
      }
    }
  })
})
