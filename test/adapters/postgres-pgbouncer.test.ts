/**
 * clubcred behind a real PgBouncer in transaction mode (docs/deployment.md § Behind PgBouncer), with
 * fewer server connections than clients, so that every unit, direct read and migration runs on
 * whichever server connection PgBouncer hands out: the storage port's conformance suite, the two-nodes
 * suite, migrations through the pooler, and two issuers issuing, signing and reading the feed together.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import postgres from 'postgres'
import { createIssuer, type Issuer } from '../../index.ts'
import { createPostgresStorage } from '../../adapters/postgres/index.ts'
import { MIGRATIONS } from '../../adapters/postgres/migrations/index.ts'
import { storageSuite } from '../conformance/storage.suite.ts'
import { createDataIntegritySigner } from '../../adapters/node/data-integrity-signer.ts'
import { twoNodesSuite } from '../conformance/two-nodes.suite.ts'
import { MASTER_KEY } from '../support/core-issuer.ts'
import { startPgBouncer, type TestPgBouncer } from '../support/pgbouncer.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'
import { clientCredentialsGrant } from '../support/tokens.ts'
import { ORIGIN, URLS } from '../support/origin.ts'
import type { Json } from '../support/json.ts'

/** Server connections PgBouncer keeps per database: below the clients' 2 × CLIENT_POOL. */
const SERVER_POOL = 2
const CLIENT_POOL = 4
const CLUB = 'chess'

const postgresServer = postgresPerFile()
let bouncer: TestPgBouncer | undefined

before(async () => {
  bouncer = await startPgBouncer((await postgresServer.started()).url, { poolSize: SERVER_POOL })
})
// After postgresPerFile's: PostgreSQL stops first, a fast stop that drops PgBouncer's server connections.
after(async () => {
  await bouncer?.stop()
})

const started = () => {
  if (!bouncer) throw new Error('PgBouncer is not started: call inside a test')
  return bouncer
}

/**
 * A fresh database (by default a migrated copy of the template) whose role default puts clubcred's
 * schema on the search_path, as docs/deployment.md asks of an operator, and its URL through PgBouncer.
 */
async function pooledDatabase({ migrated = true, searchPath = true } = {}): Promise<{ direct: string; pooled: string }> {
  const bouncer = started()
  const direct = await postgresServer.database({ migrated })
  if (searchPath) await asAdmin(direct, (sql) => sql.unsafe(`ALTER ROLE postgres IN DATABASE ${new URL(direct).pathname.slice(1)} SET search_path = clubcred`))
  return { direct, pooled: bouncer.pooled(direct) }
}

async function asAdmin<T>(url: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    return await work(sql)
  } finally {
    await sql.end({ timeout: 1 })
  }
}

const openPooled = (url: string) => createPostgresStorage({ url, poolSize: CLIENT_POOL, pgbouncer: true })

storageSuite({
  name: 'postgres through PgBouncer (transaction mode)',
  async open() {
    const storage = await openPooled((await pooledDatabase()).pooled)
    return { storage, close: () => storage.close() }
  },
})

twoNodesSuite({
  name: 'postgres through PgBouncer (transaction mode, two pools on two server connections)',
  async open() {
    const { pooled } = await pooledDatabase()
    const [a, b] = await Promise.all([node(pooled), node(pooled)])
    return {
      a,
      b,
      async close() {
        await a.close()
        await b.close()
      },
    }
  },
})

async function node(url: string): Promise<Issuer> {
  return createIssuer({ storage: await openPooled(url), masterKey: MASTER_KEY, urls: URLS, dataIntegritySigner: createDataIntegritySigner() })
}

describe('clubcred through PgBouncer in transaction mode', { timeout: 120_000 }, () => {
  it('three nodes starting together on an empty database migrate it through PgBouncer once, and a fourth starts after them', async () => {
    const { direct, pooled } = await pooledDatabase({ migrated: false })
    const first = await Promise.all([openPooled(pooled), openPooled(pooled), openPooled(pooled)])
    // A migration lock left on one of the shared server connections would stall this start for ever.
    const later = await openPooled(pooled)
    try {
      for (const storage of [...first, later]) assert.deepEqual(await storage.ping(), { migrated: true })
      const versions = await asAdmin(direct, (sql) => sql`SELECT version FROM clubcred.migrations ORDER BY version`)
      assert.deepEqual(
        versions.map((row) => row.version),
        MIGRATIONS.map((migration) => migration.version),
        'each migration applied once',
      )
      const locks = await asAdmin(direct, (sql) => sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`)
      assert.equal(locks[0]!.n, 0, 'no advisory lock outlives its transaction on a pooled server connection')
    } finally {
      await Promise.all([...first, later].map((storage) => storage.close()))
    }
  })

  it('refuses to open, naming the ALTER ROLE to run, when the server connections do not find the schema on their search_path', async () => {
    const { pooled } = await pooledDatabase({ searchPath: false })
    await assert.rejects(openPooled(pooled), {
      message:
        /search_path .* must find the schema clubcred first, and it is "\$user", public: run ALTER ROLE "postgres" IN DATABASE "t\d+" SET search_path = clubcred/,
    })
  })

  it("a unit waiting for the unit lock is cancelled after the storage's statement timeout, though no session setting survives the pool", async () => {
    const { pooled } = await pooledDatabase()
    const holder = await openPooled(pooled)
    const waiter = await createPostgresStorage({ url: pooled, poolSize: CLIENT_POOL, pgbouncer: true, statementTimeoutMs: 200 })
    let release = () => {}
    let locked = () => {}
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    const held = holder.transaction(async (tx) => {
      await tx.clubs.count() // inside the unit: the unit lock is taken
      locked()
      await new Promise<void>((resolve) => (release = resolve))
    })
    try {
      await isLocked
      await assert.rejects(
        waiter.transaction((tx) => tx.clubs.count()),
        { name: 'StorageUnavailable', message: /57014/ },
        'cancelled (57014), not waiting for ever',
      )
    } finally {
      release()
      await held
      await holder.close()
      await waiter.close()
    }
  })

  it('two issuers on the pooled URL issue a batch through both, sign it with both workers, and every credential verifies and has one event in the feed', async () => {
    const bouncer = started()
    const { direct, pooled } = await pooledDatabase()
    const [a, b] = await Promise.all([node(pooled), node(pooled)])
    try {
      await a.clubs.create({ domain: CLUB, name: 'Chess Club' })
      const token = await accessToken(b, await a.clients.create({ club: CLUB }))
      const call = callWith(token)
      const achievement = await call(b, 'POST', `/v2/clubs/${CLUB}/achievements`, { name: 'Opening theory', description: 'Studied the main openings.' })
      assert.equal(achievement.status, 201, JSON.stringify(achievement.body))

      const batch = (from: number) =>
        Array.from({ length: 60 }, (_, i) => ({ externalUserId: `member-${from + i}`, name: `Member ${from + i}`, email: `member.${from + i}@chess.example` }))
      const issued = await Promise.all(
        [a, b].map(async (on, n) => {
          const answer = await call(on, 'POST', `/v2/clubs/${CLUB}/issuances`, {
            achievementFormId: achievement.body.data.id,
            mode: 'none',
            recipients: batch(n * 60),
          })
          assert.equal(answer.status, 200, JSON.stringify(answer.body))
          return (answer.body.results as { resourceId: number }[]).map((item) => item.resourceId)
        }),
      )
      const ids = issued.flat()
      assert.equal(new Set(ids).size, 120)
      await Promise.all([a.worker.drain(), b.worker.drain()])

      for (const [i, id] of ids.entries()) {
        const on = i % 2 === 0 ? a : b
        const credential = await call(on, 'GET', `/v2/clubs/${CLUB}/issuances/${id}/credential`)
        assert.equal(credential.status, 200, JSON.stringify(credential.body))
        assert.ok(decodeJwt<{ vc?: Json }>(credential.body.data.jwt).vc, 'a signed VC-JWT')
        const verdict = await (await on.fetch(new Request(`${ORIGIN}/open-badges/v3/achievements/${id}/verify`))).json()
        assert.deepEqual([verdict.isValid, verdict.status], [true, 'valid'], `issuance ${id}`)
      }

      const events = await feed(a, call)
      const signed = events.filter((event) => event.type === 'issuance.credential_issued').map((event) => Number(event.subject.id))
      assert.deepEqual(
        signed.sort((x, y) => x - y),
        [...ids].sort((x, y) => x - y),
        'one credential_issued event per issuance, none twice',
      )
      const eventIds = events.map((event) => Number(event.id))
      assert.deepEqual(
        eventIds,
        [...eventIds].sort((x, y) => y - x),
        'the feed is newest first, without repeats',
      )
      assert.equal(new Set(eventIds).size, eventIds.length)

      const [pool] = (await bouncer.pools()).filter((row) => row.database === new URL(direct).pathname.slice(1))
      const servers = ['sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login'].reduce((sum, column) => sum + Number(pool![column]), 0)
      const clients = Number(pool!.cl_active) + Number(pool!.cl_waiting)
      assert.ok(servers <= SERVER_POOL, `at most ${SERVER_POOL} server connections, got ${servers}`)
      assert.ok(clients > servers, `more clients (${clients}) than server connections (${servers}): they were shared`)
    } finally {
      await a.close()
      await b.close()
    }
  })
})

async function accessToken(on: Issuer, client: { client_id: string; client_secret: string }): Promise<string> {
  const response = await on.fetch(new Request(`${ORIGIN}/oauth/token`, clientCredentialsGrant(client)))
  assert.equal(response.status, 200)
  return ((await response.json()) as { access_token: string }).access_token
}

type Call = (on: Issuer, method: string, path: string, body?: unknown) => Promise<{ status: number; body: Json }>

function callWith(token: string): Call {
  return async (on, method, path, body) => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }
    if (body !== undefined) init.body = JSON.stringify(body)
    const answer = await on.fetch(new Request(`${ORIGIN}${path}`, init))
    const text = await answer.text()
    return { status: answer.status, body: text ? JSON.parse(text) : null }
  }
}

/** Every event of the club's feed, page by page along `nextCursor`. */
async function feed(on: Issuer, call: Call): Promise<Json[]> {
  const events: Json[] = []
  let cursor: string | null = null
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
    const page = await call(on, 'GET', `/v2/clubs/${CLUB}/events?limit=50${query}`)
    assert.equal(page.status, 200, JSON.stringify(page.body))
    events.push(...page.body.data)
    cursor = page.body.meta.nextCursor
  } while (cursor)
  return events
}
