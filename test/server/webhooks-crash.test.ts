/**
 * Webhooks survive a crash: the real server SIGKILLed while deliveries are pending and in
 * flight (the receiver holds them unanswered), restarted on the same data dir: every feed event then
 * reaches the receiver, verified by the `standardwebhooks` library, at least once.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, it } from 'node:test'
import Database from 'better-sqlite3'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { defaultUrls } from '../../core/config.ts'
import { createCoreIssuer } from '../../core/create-core-issuer.ts'
import { loadMasterKey } from '../../server/master-key.ts'
import { accessToken } from '../support/tokens.ts'
import { freshDataDir, removeDataDir, startClockedServer } from '../support/server.ts'
import { startReceiver } from '../support/webhook-receiver.ts'
import { recipients } from '../support/issuance-api.ts'

const RECIPIENTS = 50
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const cleanups: (() => Promise<unknown> | void)[] = []
after(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function until(what: string, ms: number, check: () => boolean): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) assert.fail(`${what} did not happen within ${ms} ms`)
    await sleep(50)
  }
}

it('SIGKILL with deliveries pending and in flight: after restart every event is delivered at least once', { timeout: 120_000 }, async () => {
  const dataDir = freshDataDir()
  cleanups.push(() => removeDataDir(dataDir))
  const receiver = await startReceiver([], () => 'hang')
  cleanups.push(() => receiver.close())
  const env = { CLUBCRED_WEBHOOKS_ALLOW_PRIVATE: '1' }

  // Setup in process on the data dir, with the opt-in the loopback receiver needs.
  const admin = createCoreIssuer({
    storage: createSqliteStorage({ driver: betterSqlite3Driver(join(dataDir, 'clubcred.db')) }),
    masterKey: loadMasterKey(dataDir, undefined),
    urls: defaultUrls(8787),
    webhooks: { allowPrivate: true },
  })
  await admin.clubs.create({ domain: 'chess', name: 'Chess Club' })
  const client = await admin.clients.create({ club: 'chess' })
  const hook = await admin.webhooks.create({ club: 'chess', url: receiver.url })
  receiver.state.secrets = [hook.secret]
  await admin.close()

  const first = await startClockedServer({ dataDir, env })
  cleanups.push(() => first.kill())
  const token = await accessToken(first, client)
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const template = await first.http('/v2/clubs/chess/achievements', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'Spring', description: 'Played.' }),
  })
  assert.equal(template.status, 201, template.text)
  const issued = await first.http('/v2/clubs/chess/issuances', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ achievementFormId: template.json.data.id, mode: 'none', recipients: recipients(RECIPIENTS) }),
  })
  assert.equal(issued.status, 200, issued.text)
  // Four attempts in flight (the per-endpoint limit), the rest pending: kill now.
  await until('four attempts in flight', 20_000, () => receiver.received.length >= 4)
  await first.kill()
  const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
  const pending = (db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE delivered_at IS NULL').get() as { n: number }).n
  db.close()
  assert.ok(pending >= RECIPIENTS, `deliveries pending at the kill: ${pending}`)

  receiver.state.behaviour = () => 200
  const second = await startClockedServer({ dataDir, env })
  cleanups.push(() => second.stop())
  // The killed server's leases (2 × the 30 s timeout) must end before another sender takes them.
  await second.advance(61_000)
  const feed = () => {
    const file = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
    const ids = (file.prepare("SELECT id FROM events WHERE club = 'chess'").all() as { id: number }[]).map((row) => String(row.id))
    file.close()
    return ids
  }
  await until('every event delivered', 60_000, () => {
    const verified = new Set(receiver.received.filter((r) => r.verifiedWith.length === 1).map((r) => r.id))
    const ids = feed()
    return ids.length === 2 * RECIPIENTS && ids.every((id) => verified.has(id))
  })
  assert.ok(
    receiver.received.every((r) => r.verifiedWith.length === 1),
    'every request verifies',
  )
})
