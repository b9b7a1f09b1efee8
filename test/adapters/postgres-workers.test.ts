/**
 * Issuers on PostgreSQL with their background workers running, as the nodes of a deployment: several
 * workers signing one queue, and a worker that lives through a database outage.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import postgres from 'postgres'
import { createPostgresStorage } from '../../adapters/postgres/index.ts'
import { createWebhookTransport } from '../../adapters/node/webhook-transport.ts'
import { StorageUnavailable } from '../../core/errors.ts'
import { createIssuer, defaultUrls, type Issuer } from '../../index.ts'
import { recipients } from '../support/issuance-api.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'
import { tolerateDriverDefects } from '../support/driver-defects.ts'
import type { StoragePort } from '../../core/ports/storage.ts'

const server = postgresPerFile()
// These tests take the database away under running units, as an outage would.
tolerateDriverDefects()
const masterKey = new Uint8Array(32).fill(7)

function nodeOn(storage: StoragePort, onError: (error: unknown) => void = () => {}): Issuer {
  return createIssuer({
    storage,
    masterKey,
    urls: defaultUrls(8787),
    worker: { pollMs: 50, batchSize: 40, onError },
    webhooks: { allowPrivate: true },
    webhookTransport: createWebhookTransport(),
  })
}

/**
 * A loopback receiver that answers 200 after `delayMs`, verifies every request with the
 * `standardwebhooks` library, and records the most requests it had in flight at once per path and per
 * `webhook-id`.
 */
async function slowReceiver(secrets: Map<string, string>, delayMs: number) {
  const delivered: { path: string; id: string; verified: boolean }[] = []
  const inFlight = new Map<string, number>()
  const most = new Map<string, number>()
  const enter = (key: string) => {
    const n = (inFlight.get(key) ?? 0) + 1
    inFlight.set(key, n)
    most.set(key, Math.max(most.get(key) ?? 0, n))
  }
  const leave = (key: string) => inFlight.set(key, inFlight.get(key)! - 1)
  async function receive(req: IncomingMessage, res: ServerResponse) {
    const path = req.url!
    const id = String(req.headers['webhook-id'])
    enter(path)
    enter(`id:${path} ${id}`)
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    let verified = true
    try {
      new Webhook(secrets.get(path)!).verify(body, {
        'webhook-id': id,
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      })
    } catch {
      verified = false
    }
    setTimeout(() => {
      leave(path)
      leave(`id:${path} ${id}`)
      delivered.push({ path, id, verified })
      res.writeHead(200).end()
    }, delayMs)
  }
  // A request its sender aborts mid-body fails the read: that connection is dropped, the receiver runs on.
  const server = createServer((req, res) => void receive(req, res).catch(() => res.destroy()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delivered,
    most,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`timed out waiting: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function issued(issuer: Issuer, templateId: number, count: number, prefix: string): Promise<number[]> {
  const { result } = await issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(count, prefix) })
  assert.equal(result.summary.ok, count)
  return result.results.map((item) => (item as { resourceId: number }).resourceId)
}

describe('postgres storage › issuers with running workers', { timeout: 60_000 }, () => {
  it('three workers on one database sign every issuance once: one credential, one event and one status slot each', async () => {
    const first = await server.open()
    const storages = [first.storage, await createPostgresStorage({ url: first.url, poolSize: 4 }), await createPostgresStorage({ url: first.url, poolSize: 4 })]
    const nodes = storages.map((storage) => nodeOn(storage))
    try {
      await nodes[0]!.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const templateId = (await nodes[0]!.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
      for (const node of nodes) node.worker.start()
      const ids = (await Promise.all(nodes.map((node, i) => issued(node, templateId, 80, `node${i}`)))).flat()
      await eventually(async () => (await storages[0]!.signingJobs.count()) === 0, 45_000, 'every job signed')

      const credentials = await storages[1]!.credentials.findByIssuances(ids)
      assert.equal(credentials.length, ids.length)
      const slots = credentials.map((credential) => `${credential.statusListId}/${credential.statusListIndex}`)
      assert.equal(new Set(slots).size, slots.length, 'a status slot was used twice')
      const events = await storages[2]!.events.list('chess', { limit: 10_000, beforeId: null })
      const signedEvents = events.filter((event) => event.type === 'issuance.credential_issued').map((event) => Number(event.subject.id))
      assert.deepStrictEqual(
        [...signedEvents].sort((a, b) => a - b),
        [...ids].sort((a, b) => a - b),
      )
      // Workers racing to open the club's first list may each open one; every credential still names
      // its own list by the right URL: the unnumbered one for the club's first list only.
      const firstListId = (await storages[0]!.statusLists.listByClub('chess'))[0]!.id
      for (const credential of credentials) {
        const payload = JSON.parse(Buffer.from(credential.jwt.split('.')[1]!, 'base64url').toString()) as {
          vc: { credentialStatus: { statusListCredential: string } }
        }
        const expected = credential.statusListId === firstListId ? '/status-lists/revocation' : `/status-lists/revocation/${credential.statusListId}`
        assert.ok(payload.vc.credentialStatus.statusListCredential.endsWith(expected), payload.vc.credentialStatus.statusListCredential)
      }
    } finally {
      await Promise.all(nodes.map((node) => node.close()))
    }
  })

  it('three workers deliver webhooks from one database: each delivery once, never in flight twice, at most 4 at once per endpoint', async () => {
    const first = await server.open()
    const storages = [first.storage, await createPostgresStorage({ url: first.url, poolSize: 4 }), await createPostgresStorage({ url: first.url, poolSize: 4 })]
    const nodes = storages.map((storage) => nodeOn(storage))
    const secrets = new Map<string, string>()
    const endpointIds: string[] = []
    const receiver = await slowReceiver(secrets, 15)
    try {
      await nodes[0]!.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const templateId = (await nodes[0]!.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
      for (const path of ['/a', '/b']) {
        const hook = await nodes[0]!.webhooks.create({ club: 'chess', url: `${receiver.url}${path}` })
        secrets.set(path, hook.secret)
        endpointIds.push(hook.id)
      }
      for (const node of nodes) node.worker.start()
      const ids = (await Promise.all(nodes.map((node, i) => issued(node, templateId, 40, `node${i}`)))).flat()
      await eventually(async () => (await storages[0]!.signingJobs.count()) === 0, 45_000, 'every job signed')
      const undone = async () =>
        (await Promise.all(endpointIds.map((id) => storages[0]!.webhookDeliveries.listByEndpoint(id, 10_000))))
          .flat()
          .filter((delivery) => delivery.deliveredAt === null && delivery.givenUpAt === null).length
      await eventually(async () => (await undone()) === 0, 45_000, 'every delivery delivered')

      const eventIds = (await storages[2]!.events.list('chess', { limit: 10_000, beforeId: null })).map((event) => String(event.id))
      assert.equal(eventIds.length, 2 * ids.length, 'issued and credential_issued per issuance')
      for (const path of ['/a', '/b']) {
        const got = receiver.delivered.filter((d) => d.path === path)
        assert.deepStrictEqual(got.map((d) => d.id).sort(), [...eventIds].sort(), `${path}: each event delivered exactly once`)
        assert.ok(
          got.every((d) => d.verified),
          `${path}: every delivery verifies`,
        )
        assert.ok(receiver.most.get(path)! <= 4, `${path}: ${receiver.most.get(path)} deliveries in flight at once`)
      }
      assert.ok(
        [...receiver.most].every(([key, n]) => !key.startsWith('id:') || n === 1),
        'a delivery was in flight twice at once',
      )
    } finally {
      await Promise.all(nodes.map((node) => node.close()))
      await receiver.close()
    }
  })

  it('a worker that polls once a minute signs at once what another node queued: the database announces the jobs', async () => {
    const { storage, url } = await server.open()
    const api = nodeOn(storage)
    const workerStorage = await createPostgresStorage({ url, poolSize: 2 })
    const worker = createIssuer({ storage: workerStorage, masterKey, urls: defaultUrls(8787), worker: { pollMs: 60_000 } })
    const admin = postgres(url, { max: 1, onnotice: () => {} })
    try {
      await api.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const templateId = (await api.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
      worker.worker.start()
      // Its first round found nothing: it now waits a minute, unless woken; and it listens.
      await eventually(
        async () => (await admin`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'listen%'`).length > 0,
        10_000,
        'the worker listening',
      )
      const ids = await issued(api, templateId, 3, 'woken')
      await eventually(async () => (await storage.credentials.findByIssuances(ids)).length === 3, 10_000, 'signed well before the next poll')
    } finally {
      await admin.end()
      await worker.close()
      await api.close()
    }
  })

  it('a worker lives through a database outage and signs again when it is back, on the same storage', async () => {
    const { storage } = await server.open()
    const errors: unknown[] = []
    const node = nodeOn(storage, (error) => errors.push(error))
    try {
      await node.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const templateId = (await node.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })).id
      node.worker.start()
      const before = await issued(node, templateId, 5, 'before')
      await eventually(async () => (await storage.credentials.findByIssuances(before)).length === 5, 15_000, 'signed before the outage')

      await server.server().pause()
      try {
        await eventually(async () => errors.some((error) => error instanceof StorageUnavailable), 10_000, 'a worker round failing')
      } finally {
        await server.server().resume()
      }
      // A connection the worker began while the server was still starting fails with 57P03 (a 503 to
      // an API client): the storage answers again on its own, without being reopened. Its first query
      // may wait seconds on a connection the restart broke (4.6 s seen on a quiet machine, more than 10
      // under a full suite's load); what this checks is that it answers at all, not how soon.
      await eventually(
        () =>
          storage.clubs.count().then(
            () => true,
            () => false,
          ),
        30_000,
        'the storage answering again',
      )
      const after = await issued(node, templateId, 5, 'after')
      await eventually(async () => (await storage.credentials.findByIssuances(after)).length === 5, 15_000, 'signed after the outage')
    } finally {
      await node.close()
    }
  })
})
