import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { recipients } from '../../support/issuance-api.ts'
import { startReceiver } from '../../support/webhook-receiver.ts'
import { webhookHarness } from '../../support/webhook-harness.ts'

/**
 * Webhook delivery end to end: a real loopback receiver checks every request with the
 * `standardwebhooks` npm library.
 */

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function setUp(options: Parameters<typeof webhookHarness>[0] = {}) {
  const h = webhookHarness(options)
  cleanups.push(() => h.close())
  await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  const templateId = (await h.issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
  const issue = async (count: number, prefix = 'member') => {
    const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(count, prefix) })
    assert.equal(result.summary.ok, count)
  }
  return { h, issue }
}

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args)
  cleanups.push(() => r.close())
  return r
}

const feedIds = async (h: ReturnType<typeof webhookHarness>) =>
  (await h.storage.events.list('chess', { limit: 100_000, beforeId: null })).map((event) => String(event.id)).sort()

describe('webhook delivery', () => {
  it('200 recipients: 400 signed deliveries, each webhook-id a feed event id, data the feed event', async () => {
    const { h, issue } = await setUp()
    const r = await receiver()
    const hook = await h.issuer.webhooks.create({ club: 'chess', url: r.url })
    r.state.secrets = [hook.secret]
    await issue(200)
    await h.issuer.worker.drain()
    assert.equal(r.received.length, 400)
    assert.ok(
      r.received.every((request) => request.verifiedWith.length === 1),
      'every delivery verifies',
    )
    assert.deepEqual(r.received.map((request) => request.id).sort(), await feedIds(h))
    const feed = await h.issuer.events.list('chess', { limit: '1' })
    const newest = r.received.find((request) => request.id === feed.data[0]!.id)!
    const body = JSON.parse(newest.body)
    assert.deepEqual(body.data, feed.data[0])
    assert.equal(body.type, feed.data[0]!.type)
    const types = r.received.map((request) => JSON.parse(request.body).type)
    assert.equal(types.filter((type) => type === 'issuance.issued').length, 200)
    assert.equal(types.filter((type) => type === 'issuance.credential_issued').length, 200)
  })

  it('only the event types asked for', async () => {
    const { h, issue } = await setUp()
    const r = await receiver()
    await h.issuer.webhooks.create({ club: 'chess', url: r.url, events: 'issuance.credential_issued' })
    await issue(3)
    await h.issuer.worker.drain()
    assert.deepEqual(new Set(r.received.map((request) => JSON.parse(request.body).type)), new Set(['issuance.credential_issued']))
  })

  it('500s and timeouts are retried on the schedule, signed the same way; the log shows the attempts', async () => {
    const { h, issue } = await setUp({ webhooks: { timeoutMs: 300, connectTimeoutMs: 300 } })
    const r = await receiver([], (request, attempt) => {
      const n = Number(request.id)
      if (n % 3 === 0 && attempt <= 2) return 500
      if (n % 3 === 1 && attempt === 1) return 'hang'
      return 200
    })
    const hook = await h.issuer.webhooks.create({ club: 'chess', url: r.url, events: 'issuance.issued' })
    r.state.secrets = [hook.secret]
    await issue(9)
    await h.issuer.worker.drain()
    const delivered = async () => (await h.issuer.webhooks.deliveries(hook.id)).filter((d) => d.state === 'delivered').length
    const log1 = await h.issuer.webhooks.deliveries(hook.id)
    assert.equal(log1.filter((d) => d.state === 'delivered').length, 3)
    assert.ok(log1.filter((d) => d.state === 'pending').every((d) => d.attempts === 1 && d.nextAttemptAt !== null))
    assert.ok(log1.some((d) => d.lastStatus === 500) && log1.some((d) => d.lastError?.startsWith('timeout')))
    // The second attempt is due within 6 s of the first (5 s plus at most a fifth).
    h.clock.advance(6_001)
    await h.issuer.worker.drain()
    assert.equal(await delivered(), 6)
    // The third within 36 s of the second.
    h.clock.advance(36_001)
    await h.issuer.worker.drain()
    assert.equal(await delivered(), 9)
    const log = await h.issuer.webhooks.deliveries(hook.id)
    assert.ok(log.every((d) => d.state === 'delivered' && d.lastStatus === 200 && d.nextAttemptAt === null))
    assert.deepEqual(log.map((d) => d.attempts).sort(), [1, 1, 1, 2, 2, 2, 3, 3, 3])
    assert.equal(r.received.length, 9 + 6 + 3, 'first attempts, 6 second ones, 3 third ones')
    assert.ok(
      r.received.every((request) => request.verifiedWith.length === 1),
      'retries are signed too',
    )
  })

  it('rotation: during the 24 h overlap either secret verifies, after it only the new one', async () => {
    // Starts 24 h minus 2 min before now, so that the overlap ends 2 min from now: the deliveries below
    // carry timestamps near real time, which the receiver's library demands.
    const day = 24 * 60 * 60 * 1000
    const { h, issue } = await setUp({ start: Date.now() - day + 120_000 })
    const r = await receiver()
    const hook = await h.issuer.webhooks.create({ club: 'chess', url: r.url, events: 'issuance.issued' })
    const rotated = await h.issuer.webhooks.rotateSecret(hook.id)
    assert.notEqual(rotated.secret, hook.secret)
    r.state.secrets = [hook.secret, rotated.secret]
    h.clock.advance(day - 120_000) // now: the overlap still runs
    await issue(2, 'during')
    await h.issuer.worker.drain()
    assert.deepEqual(
      r.received.map((request) => request.verifiedWith),
      [
        [0, 1],
        [0, 1],
      ],
    )
    h.clock.advance(180_000) // the overlap ended a minute ago
    await issue(2, 'after')
    await h.issuer.worker.drain()
    assert.deepEqual(
      r.received.slice(2).map((request) => request.verifiedWith),
      [[1], [1]],
    )
  })

  it('replay --after delivers again every later event under its webhook-id', async () => {
    const { h, issue } = await setUp()
    const r = await receiver()
    const hook = await h.issuer.webhooks.create({ club: 'chess', url: r.url })
    await issue(3)
    await h.issuer.worker.drain()
    const ids = await feedIds(h)
    const after = ids.map(Number).sort((a, b) => a - b)[1]!
    const { replayed } = await h.issuer.webhooks.replay(hook.id, String(after))
    assert.equal(replayed, ids.length - 2)
    await h.issuer.worker.drain()
    assert.equal(r.received.length, ids.length * 2 - 2)
    assert.deepEqual(
      r.received
        .slice(ids.length)
        .map((request) => Number(request.id))
        .sort((a, b) => a - b),
      ids
        .map(Number)
        .filter((id) => id > after)
        .sort((a, b) => a - b),
    )
  })

  it('replay with a last event delivers again the events between, and no later one; the log pages below a delivery id', async () => {
    const { h, issue } = await setUp()
    const r = await receiver()
    const hook = await h.issuer.webhooks.create({ club: 'chess', url: r.url })
    await issue(3)
    await h.issuer.worker.drain()
    const ids = (await feedIds(h)).map(Number).sort((a, b) => a - b)
    const one = ids[2]!
    assert.deepEqual(await h.issuer.webhooks.replay(hook.id, String(one - 1), String(one)), { id: hook.id, replayed: 1 })
    await h.issuer.worker.drain()
    assert.deepEqual(
      r.received.slice(ids.length).map((request) => Number(request.id)),
      [one],
    )
    await assert.rejects(h.issuer.webhooks.replay(hook.id, String(one), String(one)), { code: 'validation-failed' })
    const log = await h.issuer.webhooks.deliveries(hook.id, 1000)
    assert.equal(log.length, ids.length + 1)
    const second = await h.issuer.webhooks.deliveries(hook.id, 2, log[1]!.id)
    assert.deepEqual(second, log.slice(2, 4))
  })

  it('a receiver that never answers 2xx: given up after the schedule, the endpoint disabled after 5 give-ups, with an event', async () => {
    const { h, issue } = await setUp()
    const r = await receiver([], () => 503)
    const hook = await h.issuer.webhooks.create({ club: 'chess', url: r.url, events: 'issuance.issued' })
    const other = await receiver()
    await h.issuer.webhooks.create({ club: 'chess', url: other.url, events: 'webhook.disabled' })
    await issue(5)
    for (let i = 0; i < 14; i++) {
      await h.issuer.worker.drain()
      h.clock.advance(44 * 60 * 60 * 1000) // beyond any one delay with jitter
    }
    const log = await h.issuer.webhooks.deliveries(hook.id)
    assert.ok(log.every((d) => d.state === 'given-up' && d.attempts === 14 && d.lastStatus === 503))
    assert.equal((await h.issuer.webhooks.list('chess')).find((w) => w.id === hook.id)!.enabled, false)
    const events = await h.storage.events.list('chess', { limit: 10, beforeId: null })
    assert.deepEqual(events[0]!.subject, { type: 'webhook', id: hook.id })
    assert.equal(events[0]!.type, 'webhook.disabled')
    assert.equal(other.received.length, 1)
  })
})
