/**
 * Several processes on one PostgreSQL database, each a real `npm start`: two `api` nodes and
 * a `worker`, then a second worker. 5,000 recipients are issued through both API nodes at once, the
 * first worker is SIGKILLed while it signs and started again, and a reader pages the event feed with
 * its cursor the whole time. Afterwards, read straight from the database: exactly one credential and one
 * `issuance.credential_issued` event per issuance, distinct status-list slots, every credential verifying
 * with its club's key from the DID document; and the reader saw every event exactly once.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { compactVerify, importJWK, type JWK } from 'jose'
import postgres from 'postgres'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { spawnNode, type NodeProcess } from '../support/node-process.ts'
import { demoClientFrom } from '../support/server.ts'
import { accessToken } from '../support/tokens.ts'
import { ADDRESS } from '../support/origin.ts'

const TOTAL = 5000
/** The batches' issuances and the one of the Idempotency-Key race. */
const STORED = TOTAL + 1
const BATCH = 500
/** Short, so that the killed worker's jobs are taken over within the test (production: 60 s). */
const LEASE_MS = 4000
const SIGNED_WITHIN_MS = 120_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('several nodes on one PostgreSQL database', { timeout: 300_000 }, () => {
  let server: TestPostgres
  const nodes: NodeProcess[] = []
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await Promise.all(nodes.map((node) => node.kill()))
    await server?.stop()
  })

  it('two api nodes and two workers, one SIGKILLed mid-run: 5,000 credentials, one event each, distinct slots, a feed reader that misses nothing', async (t) => {
    const databaseUrl = await server.newDatabase()
    const env = {
      CLUBCRED_DATABASE_URL: databaseUrl,
      CLUBCRED_MASTER_KEY: randomBytes(32).toString('hex'),
      CLUBCRED_SIGNING_LEASE_MS: String(LEASE_MS),
      CLUBCRED_DATABASE_POOL_SIZE: '4',
      // One deployment has one address: the nodes sit behind one name, so DIDs, token audiences and
      // credential URLs are the same whichever node made them.
      ...ADDRESS,
    }
    const start = async (role: 'api' | 'worker') => {
      const node = await spawnNode({ ...env, CLUBCRED_ROLE: role })
      nodes.push(node)
      return node
    }
    const apiA = await start('api')
    const client = demoClientFrom(apiA.stderr)
    assert.ok(client, 'the first node created the demo club and its client')
    const [apiB, firstWorker] = await Promise.all([start('api'), start('worker')])
    assert.equal(demoClientFrom(apiB.stderr), null, 'one demo club, made by one node')
    // A worker answers its health check and nothing else.
    const health = await firstWorker.http('/healthz')
    assert.deepEqual([health.status, health.json], [200, { status: 'ok', role: 'worker' }])
    for (const path of ['/v2/clubs/demo/', '/open-badges/v3/issuers/demo/did.json', '/oauth/token']) {
      const refused = await firstWorker.http(path)
      assert.deepEqual([refused.status, refused.json?.code], [404, 'route-not-found'], path)
    }

    const tokenOf = (node: NodeProcess) => accessToken(node, client)
    // A token from one node is good on the other: no stickiness needed behind the load balancer.
    const token = await tokenOf(apiA)
    const tokens = new Map([
      [apiA, token],
      [apiB, token],
    ])
    const call = (node: NodeProcess, method: string, path: string, body?: unknown) =>
      node.http(`/v2/clubs/demo${path}`, {
        method,
        headers: { authorization: `Bearer ${tokens.get(node)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })

    const created = await call(apiA, 'POST', '/achievements', { name: 'Relay', description: 'Ran a leg of the club relay.', tag: ['running'] })
    assert.equal(created.status, 201, created.text)
    const templateId = created.json.data.id as number

    // One Idempotency-Key sent to both API nodes at once makes one batch: the other answer is its replay
    // or 409 idempotency-in-flight, never a second batch.
    const keyed = await call(apiA, 'POST', '/achievements', { name: 'Baton', description: 'Passed the baton.', tag: ['running'] })
    const keyedBody = { achievementFormId: keyed.json.data.id, mode: 'none', recipients: [{ name: 'Anchor', email: 'anchor@relay.example' }] }
    const twice = await Promise.all(
      [apiA, apiB].map((node) =>
        node.http('/v2/clubs/demo/issuances', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'relay-anchor' },
          body: JSON.stringify(keyedBody),
        }),
      ),
    )
    const outcomes = twice.map((response) =>
      response.status === 200 ? (response.headers['idempotent-replayed'] === 'true' ? 'replayed' : 'issued') : `${response.status} ${response.json?.code}`,
    )
    assert.equal(outcomes.filter((outcome) => outcome === 'issued').length, 1, `one batch: ${outcomes}`)
    assert.ok(
      outcomes.every((outcome) => ['issued', 'replayed', '409 idempotency-in-flight'].includes(outcome)),
      String(outcomes),
    )

    // The reader: newest page first, back with the cursor to the newest event it had; a naive reader
    // like this one misses an event that commits after a later one it has already seen.
    const seen = new Map<string, number>()
    let newestSeen = 0
    const readNew = async () => {
      const fresh: { id: string }[] = []
      let cursor: string | null = null
      page: for (;;) {
        const response = await call(apiB, 'GET', `/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        assert.equal(response.status, 200, response.text)
        for (const event of response.json.data as { id: string }[]) {
          if (Number(event.id) <= newestSeen) break page
          fresh.push(event)
        }
        cursor = response.json.meta.nextCursor
        if (cursor === null) break
      }
      for (const event of fresh) seen.set(event.id, (seen.get(event.id) ?? 0) + 1)
      if (fresh.length > 0) newestSeen = Math.max(newestSeen, ...fresh.map((event) => Number(event.id)))
    }
    let reading = true
    const reader = (async () => {
      while (reading) {
        await readNew()
        await sleep(20)
      }
    })()

    const sql = postgres(databaseUrl, { max: 2, onnotice: () => {}, connection: { search_path: 'clubcred' } })
    try {
      const count = async (query: string) => Number((await sql.unsafe(query))[0]!.n)

      const batches = Array.from({ length: TOTAL / BATCH }, (_, b) => {
        const node = b % 2 === 0 ? apiA : apiB
        const recipients = Array.from({ length: BATCH }, (_, i) => {
          const n = b * BATCH + i
          return { externalUserId: `runner-${n}`, name: `Runner ${n}`, email: `runner${n}@relay.example` }
        })
        return call(node, 'POST', '/issuances', { achievementFormId: templateId, mode: 'none', recipients })
      })

      // Kill the first worker while it holds leased jobs, after it stored some, and start it again
      // beside a second one: its leased jobs wait out the lease, then the others sign them.
      const killAt = Date.now() + SIGNED_WITHIN_MS
      let leasedAtKill = 0
      for (;;) {
        assert.ok(Date.now() < killAt, 'the first worker never held leased jobs after storing some')
        const stored = await count('SELECT count(*) AS n FROM credentials')
        leasedAtKill = await count('SELECT count(*) AS n FROM signing_jobs WHERE lease_until IS NOT NULL')
        if (stored > 0 && leasedAtKill > 0) break
        await sleep(10)
      }
      await firstWorker.kill()
      t.diagnostic(`first worker SIGKILLed with ${await count('SELECT count(*) AS n FROM credentials')} credentials stored and ${leasedAtKill} jobs leased`)
      await Promise.all([start('worker'), start('worker')])

      for (const response of await Promise.all(batches)) {
        assert.equal(response.status, 200, response.text)
        assert.equal(response.json.summary.ok, BATCH)
      }
      const signedBy = Date.now() + SIGNED_WITHIN_MS
      while ((await count('SELECT count(*) AS n FROM credentials')) < STORED) {
        assert.ok(Date.now() < signedBy, `not all ${STORED} credentials within ${SIGNED_WITHIN_MS} ms`)
        await sleep(200)
      }
      reading = false
      await reader
      await readNew()

      // The database, read directly.
      assert.equal(await count(`SELECT count(*) AS n FROM issuances WHERE achievement_id = ${templateId}`), TOTAL, 'every accepted issuance, once')
      assert.equal(await count(`SELECT count(*) AS n FROM issuances WHERE achievement_id = ${keyed.json.data.id}`), 1, 'one batch for one key')
      assert.equal(await count('SELECT count(*) AS n FROM credentials'), STORED, 'exactly one credential per issuance')
      assert.equal(await count('SELECT count(DISTINCT issuance_id) AS n FROM credentials'), STORED)
      assert.equal(await count('SELECT count(*) AS n FROM signing_jobs'), 0, 'no job left')
      assert.equal(await count('SELECT count(DISTINCT (status_list_id, status_list_index)) AS n FROM credentials'), STORED, 'distinct status slots')
      const events = (await sql`SELECT id, type, subject_id FROM events WHERE club = 'demo'`) as unknown as { id: string; type: string; subject_id: string }[]
      for (const type of ['issuance.issued', 'issuance.credential_issued']) {
        const ofType = events.filter((event) => event.type === type)
        assert.equal(ofType.length, STORED, `${STORED} ${type} events`)
        assert.equal(new Set(ofType.map((event) => String(event.subject_id))).size, STORED, `one ${type} per issuance`)
      }

      // The reader saw every event exactly once.
      const twice = [...seen].filter(([, times]) => times > 1)
      assert.deepEqual(twice, [], 'no event read twice')
      const missed = events.filter((event) => !seen.has(String(event.id)))
      assert.deepEqual(missed.slice(0, 5), [], `the reader missed ${missed.length} events`)
      assert.equal(seen.size, events.length)

      // Every credential verifies with a key of the club's DID document, served by either node.
      const did = await apiB.http('/open-badges/v3/issuers/demo/did.json')
      assert.equal(did.status, 200)
      const keys = new Map<string, CryptoKey>()
      for (const method of (did.json.verificationMethod as { id: string; type: string; publicKeyJwk: JWK }[]).filter((m) => m.type === 'JsonWebKey2020')) {
        keys.set(method.id, (await importJWK(method.publicKeyJwk, 'ES256')) as CryptoKey)
      }
      for (const row of await sql`SELECT jwt FROM credentials`) {
        const jwt = row.jwt as string
        const { kid } = JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string }
        const key = keys.get(kid)
        assert.ok(key, `the DID document lists ${kid}`)
        await compactVerify(jwt, key)
      }
    } finally {
      reading = false
      await reader.catch(() => {})
      await sql.end()
    }
  })
})
