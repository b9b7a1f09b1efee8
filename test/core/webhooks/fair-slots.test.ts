import assert from 'node:assert/strict'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, it } from 'node:test'
import { recipients } from '../../support/issuance-api.ts'
import { webhookHarness } from '../../support/webhook-harness.ts'

/**
 * The sender's slots are shared fairly between clubs: one club's receivers that never answer must not
 * delay another club's delivery by more than one attempt's timeout. The bound is a correctness bound
 * (the old sender missed it by whole timeouts), not a speed figure; the attempt timeout is made short so
 * that the test is quick.
 * @see The webhook sender's slots shared by every club (17 silent endpoints delayed another club by 85 s)
 */

const TIMEOUT_MS = 2000
/** What a round, a signature and a loopback request may add to the timeout on a busy machine. */
const MARGIN_MS = 1000

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

/**
 * One real HTTP receiver on loopback for every club: requests to `/silent/...` are accepted and never
 * answered; `/answer` is answered 204 at once, and the time it arrived is kept.
 */
async function startSharedReceiver() {
  const silent = { open: 0, most: 0, seen: 0 }
  const answered: number[] = []
  const hanging = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    req.resume()
    if (req.url === '/answer') {
      answered.push(performance.now())
      res.writeHead(204).end()
      return
    }
    silent.seen++
    silent.most = Math.max(silent.most, ++silent.open)
    hanging.add(res)
    res.on('close', () => {
      silent.open--
      hanging.delete(res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return { origin, silent, answered }
}

/** Waits for `condition`; gives up with the test (its timeout aborts `signal`). */
const until = async (condition: () => boolean, signal: AbortSignal) => {
  while (!condition()) {
    signal.throwIfAborted()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

async function setUp() {
  const receiver = await startSharedReceiver()
  const h = webhookHarness({ webhooks: { allowPrivate: true, timeoutMs: TIMEOUT_MS, connectTimeoutMs: TIMEOUT_MS }, pollMs: 50 })
  cleanups.push(() => h.close())
  const templates = new Map<string, number>()
  const club = async (domain: string, endpoints: number, path: string) => {
    await h.issuer.clubs.create({ domain, name: `Club ${domain}` })
    templates.set(domain, (await h.issuer.achievements.create(domain, { name: 'Attendance', description: 'Came to the club.' })).id)
    for (let i = 0; i < endpoints; i++) await h.issuer.webhooks.create({ club: domain, url: `${receiver.origin}${path}${path === '/answer' ? '' : `/${i}`}` })
  }
  const issue = async (domain: string, count: number) => {
    const { result } = await h.issuer.issuances.issue(domain, { achievementFormId: templates.get(domain)!, recipients: recipients(count, domain) })
    assert.equal(result.summary.ok, count)
  }
  return { h, receiver, club, issue }
}

describe('webhook slots shared between clubs', () => {
  it(
    "a club's 17 silent endpoints hold at most its share, and another club's delivery goes out without waiting for a timeout",
    { timeout: 30_000 },
    async (t) => {
      const { h, receiver, club, issue } = await setUp()
      await club('slow', 17, '/silent')
      await club('quick', 1, '/answer')
      await issue('slow', 10) // 170 deliveries at once, 340 once signed: far more than the 64 slots
      h.issuer.worker.start()
      await until(() => receiver.silent.seen > 0, t.signal)
      const enqueued = performance.now()
      await issue('quick', 1)
      await until(() => receiver.answered.length > 0, t.signal)
      const waited = receiver.answered[0]! - enqueued
      // The slow club holds only its share, so the quick club's delivery waits for no timeout at all; a
      // cap on connections per origin would queue it behind the silent attempts to the same receiver.
      assert.ok(waited < TIMEOUT_MS, `the quick club's delivery waited ${Math.round(waited)} ms`)
      assert.ok(receiver.silent.most <= h.context.config.webhooks.concurrencyPerClub, `${receiver.silent.most} silent attempts at once`)
    },
  )

  it(
    "when silent clubs hold every slot, another club's delivery takes one of the first to free, within one attempt's timeout",
    { timeout: 30_000 },
    async (t) => {
      const { h, receiver, club, issue } = await setUp()
      await club('slow-a', 17, '/silent')
      await club('slow-b', 17, '/silent')
      await club('quick', 1, '/answer')
      await issue('slow-a', 10)
      await issue('slow-b', 10)
      h.issuer.worker.start()
      // Two clubs at their share each: every one of the sender's 64 slots is held.
      await until(() => receiver.silent.open === 2 * h.context.config.webhooks.concurrencyPerClub, t.signal)
      const enqueued = performance.now()
      await issue('quick', 1)
      await until(() => receiver.answered.length > 0, t.signal)
      const waited = receiver.answered[0]! - enqueued
      assert.ok(waited < TIMEOUT_MS + MARGIN_MS, `the quick club's delivery waited ${Math.round(waited)} ms`)
    },
  )
})
