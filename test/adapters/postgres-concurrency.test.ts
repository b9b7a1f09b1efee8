/**
 * Several PostgreSQL storage instances on one database, each with its own pool: separate "nodes" as far
 * as the database can tell. Real concurrency on a real server, no stand-in.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import postgres from 'postgres'
import { MIGRATIONS } from '../../adapters/postgres/migrations/index.ts'
import { createPostgresStorage } from '../../adapters/postgres/index.ts'
import { StorageConflict, StorageUnavailable } from '../../core/errors.ts'
import { createIssuer, defaultUrls } from '../../index.ts'
import { aKey, deferred } from '../conformance/storage/harness.ts'
import { anIssuance, seedIssuances, seedTemplate, type IssuingSeed } from '../conformance/storage/issuances.cases.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'
import { tolerateDriverDefects } from '../support/driver-defects.ts'
import type { StoragePort, UnitOptions } from '../../core/ports/storage.ts'

const server = postgresPerFile()
// These tests take the database away under running units, as an outage would.
tolerateDriverDefects()
const NOW = 1_900_000_000_000
const LEASE = 60_000

/** Three storages ("nodes") on one fresh migrated database, closed after the test. */
function threeNodes(): { nodes(): StoragePort[]; url(): string } {
  let nodes: StoragePort[] = []
  let url = ''
  beforeEach(async () => {
    const first = await server.open()
    url = first.url
    nodes = [first.storage, await createPostgresStorage({ url, poolSize: 4 }), await createPostgresStorage({ url, poolSize: 4 })]
  })
  afterEach(async () => {
    await Promise.all(nodes.map((node) => node.close()))
    nodes = []
  })
  return { nodes: () => nodes, url: () => url }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('postgres storage › migrations', () => {
  it('three instances starting at once on an empty database apply each migration once', async () => {
    const url = await server.server().newDatabase()
    const nodes = await Promise.all([1, 2, 3].map(() => createPostgresStorage({ url, poolSize: 2 })))
    try {
      const sql = postgres(url, { max: 1, onnotice: () => {} })
      const applied = await sql`SELECT version, count(*)::int AS n FROM clubcred.migrations GROUP BY version ORDER BY version`
      await sql.end()
      assert.deepStrictEqual(
        applied.map((row) => ({ ...row })),
        MIGRATIONS.map(({ version }) => ({ version, n: 1 })),
      )
      // And every node works on the one schema.
      await nodes[0]!.clubs.insert({ domain: 'chess', name: 'Chess', canIssue: true, issuerVerified: false, createdAt: NOW })
      assert.equal(await nodes[2]!.clubs.count(), 1)
    } finally {
      await Promise.all(nodes.map((node) => node.close()))
    }
  })
})

describe('postgres storage › several nodes on one database', () => {
  const { nodes, url } = threeNodes()

  async function enqueued(count: number): Promise<number[]> {
    const ids = await seedIssuances(nodes()[0]!, await seedTemplate(nodes()[0]!), count)
    await nodes()[0]!.transaction((tx) => tx.signingJobs.enqueueMany(ids.map((issuanceId) => ({ issuanceId, club: 'chess' }))))
    return ids
  }

  it('concurrent claims from three nodes never return the same job, and together return every job', async () => {
    const ids = await enqueued(60)
    const claimRound = (node: StoragePort) => node.transaction((tx) => tx.signingJobs.claim(NOW, LEASE, 7), { concurrent: true })
    const claimed: number[] = []
    for (;;) {
      const rounds = await Promise.all(nodes().flatMap((node) => [claimRound(node), claimRound(node)]))
      const jobs = rounds.flat()
      if (jobs.length === 0) break
      claimed.push(...jobs.map((job) => job.issuanceId))
    }
    assert.equal(new Set(claimed).size, claimed.length, 'a job was claimed twice')
    assert.deepStrictEqual([...claimed].sort(), [...ids].sort())
  })

  it('SKIP LOCKED: while one node holds its claim open, another node claims the next jobs without waiting', async () => {
    const ids = await enqueued(4)
    const hold = deferred()
    const firstClaimed = deferred<number[]>()
    const holding = nodes()[0]!.transaction(
      async (tx) => {
        firstClaimed.resolve((await tx.signingJobs.claim(NOW, LEASE, 2)).map((job) => job.issuanceId))
        await hold.promise
      },
      { concurrent: true },
    )
    const first = await firstClaimed.promise
    // Bounded: a claim that waited for the open unit's row or unit lock would hit the timeout instead.
    const second = await Promise.race([
      nodes()[1]!.transaction((tx) => tx.signingJobs.claim(NOW, LEASE, 2), { concurrent: true }),
      sleep(3000).then(() => 'waited' as const),
    ])
    hold.resolve()
    await holding
    assert.notEqual(second, 'waited', 'the second claim waited for the first')
    assert.deepStrictEqual(first, ids.slice(0, 2))
    assert.deepStrictEqual(
      (second as { issuanceId: number }[]).map((job) => job.issuanceId),
      ids.slice(2, 4),
    )
  })

  it('takeSlots from three nodes at once never hands out one position twice', async () => {
    const list = await nodes()[0]!.transaction((tx) =>
      tx.statusLists.insert({ club: 'chess', purpose: 'revocation', size: 1000, seed: 'c2VlZA', createdAt: NOW }),
    )
    const take = (node: StoragePort) => node.transaction((tx) => tx.statusLists.takeSlots(list.id, 9), { concurrent: true })
    const taken = (await Promise.all(Array.from({ length: 120 }, (_, i) => take(nodes()[i % 3]!)))).filter((slots) => slots !== null)
    const positions = taken.flatMap((slots) => Array.from({ length: slots.count }, (_, i) => slots.first + i))
    assert.equal(new Set(positions).size, positions.length, 'a position was handed out twice')
    assert.equal(positions.length, 1000, 'every position of the list is handed out once it is full')
    assert.deepStrictEqual(await nodes()[1]!.statusLists.listByClub('chess'), [{ ...list, allocated: 1000 }])
  })

  it('of concurrent inserts of an active key for one owner on three nodes, exactly one wins', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) => nodes()[i % 3]!.transaction((tx) => tx.keys.insert(aKey({ kid: `kid-${i}`, owner: 'club:chess' })))),
    )
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1)
    for (const result of results) {
      if (result.status === 'rejected') assert.ok(result.reason instanceof StorageConflict, String(result.reason))
    }
    assert.equal((await nodes()[2]!.keys.listByOwner('club:chess')).length, 1)
  })

  it('of one idempotency key inserted on three nodes at once, exactly one insert wins', async () => {
    const record = { scope: 'cc_1 POST /issuances', key: 'k-1', requestHash: 'h', response: null, createdAt: NOW, expiresAt: NOW + 86_400_000 }
    const results = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) => nodes()[i % 3]!.transaction((tx) => tx.idempotency.insert({ ...record, requestHash: `h${i}` }))),
    )
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1)
    for (const result of results) {
      if (result.status === 'rejected') assert.ok(result.reason instanceof StorageConflict, String(result.reason))
    }
  })

  it("each club's event ids and issuance sequences commit in increasing order across nodes, whatever kind of unit wrote them: a polling reader of each club sees every event exactly once", async () => {
    const seeds: IssuingSeed[] = [await seedTemplate(nodes()[0]!, 'chess'), await seedTemplate(nodes()[0]!, 'go')]
    const writers = 48
    let writing = true
    const seen = new Map(seeds.map((seed) => [seed.club, { events: [] as number[], sequences: [] as number[] }]))
    // A node of its own, as a feed client's requests would reach: its pool is not busy with the writes.
    const reader = await createPostgresStorage({ url: url(), poolSize: 2 })

    // The feed's way of reading: newest first, down to the newest id already seen.
    async function pollEvents(club: string): Promise<void> {
      const seenEvents = seen.get(club)!.events
      const newest = seenEvents.length > 0 ? Math.max(...seenEvents) : 0
      let beforeId: number | null = null
      for (;;) {
        const page = await reader.events.list(club, { limit: 5, beforeId })
        const fresh = page.filter((event) => event.id > newest)
        seenEvents.push(...fresh.map((event) => event.id))
        if (fresh.length < page.length || page.length < 5) return
        beforeId = page.at(-1)!.id
      }
    }
    async function pollIssuances(club: string): Promise<void> {
      const seenSequences = seen.get(club)!.sequences
      const newest = seenSequences.length > 0 ? Math.max(...seenSequences) : 0
      let beforeSequence: number | null = null
      for (;;) {
        const page = await reader.issuances.list(club, { limit: 5, beforeSequence })
        const fresh = page.filter((issuance) => issuance.sequence > newest)
        seenSequences.push(...fresh.map((issuance) => issuance.sequence))
        if (fresh.length < page.length || page.length < 5) return
        beforeSequence = page.at(-1)!.sequence
      }
    }
    const pollAll = async () => {
      for (const seed of seeds) {
        await pollEvents(seed.club)
        await pollIssuances(seed.club)
      }
    }
    const polling = (async () => {
      while (writing) await pollAll()
    })()

    // Each unit takes its numbers, then dawdles before committing: without the clubs' locks a later
    // number would often commit first, and the reader would step over the earlier one for good. Units
    // of a club, concurrent units (as a worker stores credentials) and units of the whole database mix.
    const kinds: UnitOptions[] = [{ club: 'chess' }, { concurrent: true }, {}]
    const units = Array.from({ length: writers }, (_, i) => {
      const seed = seeds[i % 2]!
      const options = kinds[Math.floor(i / 2) % 3]!
      return nodes()[i % 3]!.transaction(
        async (tx) => {
          const issuance = await tx.issuances.insert(anIssuance(seed))
          await tx.events.append({ club: seed.club, type: 'issuance.issued', subject: { type: 'issuance', id: String(issuance.id) }, occurredAt: NOW })
          await sleep((i * 7) % 13)
        },
        options.club === undefined ? options : { club: seed.club },
      )
    })
    await Promise.all(units)
    writing = false
    await polling
    await pollAll()

    for (const seed of seeds) {
      const allEvents = (await reader.events.list(seed.club, { limit: 1000, beforeId: null })).map((event) => event.id)
      const allSequences = (await reader.issuances.list(seed.club, { limit: 1000, beforeSequence: null })).map((issuance) => issuance.sequence)
      const { events, sequences } = seen.get(seed.club)!
      assert.equal(allEvents.length, writers / 2)
      assert.equal(new Set(events).size, events.length, `an event of ${seed.club} was seen twice`)
      assert.deepStrictEqual([...events].sort(byNumber), [...allEvents].sort(byNumber), `the reader missed events of ${seed.club}`)
      assert.deepStrictEqual([...sequences].sort(byNumber), [...allSequences].sort(byNumber), `the reader missed issuances of ${seed.club}`)
    }
    await reader.close()
  })

  it("a unit of one club does not wait for another club's, nor a worker's events for it; a second unit of the same club and a unit of the whole database do", async () => {
    await seedTemplate(nodes()[0]!, 'chess')
    await seedTemplate(nodes()[0]!, 'go')
    const hold = deferred()
    const opened = deferred()
    const holding = nodes()[0]!.transaction(
      async () => {
        opened.resolve()
        await hold.promise
      },
      { club: 'chess' },
    )
    await opened.promise
    // Bounded: a unit that waited for the open one would hit the time limit instead.
    const within = <T>(work: Promise<T>, ms: number) => Promise.race([work.then(() => 'ran' as const), sleep(ms).then(() => 'waited' as const)])
    assert.equal(
      await within(
        nodes()[1]!.transaction(async (tx) => tx.clubs.count(), { club: 'go' }),
        3000,
      ),
      'ran',
      'another club waited',
    )
    // As a worker stores credentials: its events of the club wait only for a unit that numbered events of its own.
    const storing = nodes()[1]!.transaction(
      (tx) => tx.events.append({ club: 'chess', type: 'issuance.credential_issued', subject: { type: 'issuance', id: '1' }, occurredAt: NOW }),
      { concurrent: true },
    )
    assert.equal(await within(storing, 3000), 'ran', "a concurrent unit's event waited for a unit of the club that numbered none")
    const sameClub = nodes()[1]!.transaction(async (tx) => tx.clubs.count(), { club: 'chess' })
    const wholeDatabase = nodes()[2]!.transaction(async (tx) => tx.clubs.count())
    assert.equal(await within(sameClub, 300), 'waited', 'a second unit of the club ran beside the first')
    assert.equal(await within(wholeDatabase, 300), 'waited', 'a unit of the whole database ran beside a unit of a club')
    hold.resolve()
    await Promise.all([holding, sameClub, wholeDatabase])
  })
})

const byNumber = (a: number, b: number) => a - b

describe('postgres storage › the administrative units of a club', () => {
  it("a club's templates, designs, clients, keys and club record change beside another club's unit, and wait for a unit of their own club", async () => {
    const { storage } = await server.open()
    const issuer = createIssuer({ storage, masterKey: new Uint8Array(32).fill(5), urls: defaultUrls(8787) })
    try {
      await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      await issuer.clubs.create({ domain: 'go', name: 'Go Club' })
      const template = await issuer.achievements.create('go', { name: 'Opening theory', description: 'Studied the main openings.' })
      const hold = deferred()
      const opened = deferred()
      const holding = storage.transaction(
        async () => {
          opened.resolve()
          await hold.promise
        },
        { club: 'chess' },
      )
      await opened.promise
      const within = (work: Promise<unknown>, ms: number) => Promise.race([work.then(() => 'ran' as const), sleep(ms).then(() => 'waited' as const)])
      const otherClub: Record<string, () => Promise<unknown>> = {
        'a template made': () => issuer.achievements.create('go', { name: 'Endgames', description: 'Studied the endgames.' }),
        'a template edited': () => issuer.achievements.patch('go', template.id, { name: 'Openings' }),
        'a design made': () => issuer.designs.create('go', { kind: 'certificate', name: 'Plain' }),
        'a client made': () => issuer.clients.create({ club: 'go', scopes: ['achievements:read'] }),
        'a key rotated': () => issuer.keys.rotate('go'),
        'the club changed': () => issuer.clubs.setCanIssue('go', true),
        'a club created': () => issuer.clubs.create({ domain: 'shogi', name: 'Shogi Club' }),
      }
      for (const [what, work] of Object.entries(otherClub)) assert.equal(await within(work(), 3000), 'ran', `${what} waited for another club's unit`)
      // The same operations of the held club are ordered after its unit.
      const sameClub = issuer.achievements.create('chess', { name: 'Tactics', description: 'Solved the puzzles.' })
      const sameClubKey = issuer.keys.rotate('chess')
      assert.equal(await within(sameClub, 300), 'waited', "a template of the club was made beside the club's unit")
      assert.equal(await within(sameClubKey, 300), 'waited', "a key of the club was made beside the club's unit")
      hold.resolve()
      await Promise.all([holding, sameClub, sameClubKey])
    } finally {
      await storage.close()
    }
  })
})

describe('postgres storage › the database goes away and comes back', () => {
  it('a call fails with StorageUnavailable (HTTP: 503 storage-unavailable) while the server is down, and the same storage works again after', async () => {
    const { storage } = await server.open()
    const issuer = createIssuer({ storage, masterKey: new Uint8Array(32).fill(5), urls: defaultUrls(8787) })
    try {
      await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      await server.server().pause()
      try {
        await assert.rejects(storage.clubs.findByDomain('chess'), (error) => error instanceof StorageUnavailable)
        await assert.rejects(
          storage.transaction((tx) => tx.clubs.count()),
          (error) => error instanceof StorageUnavailable,
        )
        const profile = await issuer.fetch(new Request(`${issuer.config.urls.public}/open-badges/v3/issuers/chess/did.json`))
        const verdict = await issuer.fetch(new Request(`${issuer.config.urls.public}/open-badges/v3/achievements/123456789/verify`))
        for (const answer of [profile, verdict]) {
          assert.equal(answer.status, 503)
          assert.equal(answer.headers.get('content-type'), 'application/problem+json')
          assert.equal(answer.headers.get('retry-after'), '5')
          const problem = (await answer.json()) as { code: string; title: string; type: string }
          assert.equal(problem.code, 'storage-unavailable')
          assert.equal(problem.title, 'Storage unavailable')
          assert.match(problem.type, /\/storage-unavailable$/)
        }
        // The share host answers people in HTML, never problem+json: a 503 page, with Retry-After too.
        const sharePage = await issuer.fetch(new Request('http://chess.localhost:8787/credentials/0b7e3a52-9f1c-4d2a-8e6b-3c5d7f9a1b2c'))
        assert.equal(sharePage.status, 503)
        assert.equal(sharePage.headers.get('retry-after'), '5')
        assert.match(sharePage.headers.get('content-type') ?? '', /^text\/html/)
      } finally {
        await server.server().resume()
      }
      assert.equal((await storage.clubs.findByDomain('chess'))?.name, 'Chess Club')
      await storage.transaction((tx) => tx.clubs.update('chess', { name: 'Back again' }))
      assert.equal((await storage.clubs.findByDomain('chess'))?.name, 'Back again')
    } finally {
      await issuer.close()
    }
  })
})
