/**
 * A row at a time against many at once: each store's one-row method called per row, as core
 * did (where the port no longer has one, its `…Many` method with one row), against its `…Many` method, 1,000 rows in a unit of work, on one SQLite file, in one process,
 * alternating (ABBA, so that neither side always writes to the bigger table). Prints the median CPU µs per
 * row of each and their ratio (`process.cpuUsage`: no other thread works here, and the machine's load
 * moves both sides alike). Prints one JSON line.
 *
 *   npx tsx bench/rows.bench.ts [--rounds 20]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import type { NewIssuance } from '../core/issuances/issuance.ts'
import type { ClubEvent, UnitOfWork } from '../core/ports/storage.ts'
import { aClub } from '../test/conformance/storage/harness.ts'
import { aNewTemplate, aView } from '../test/conformance/storage/issuances.cases.ts'
import { benchSettings } from './settings.ts'
import { median } from './measure.ts'

const { rounds: ROUNDS } = benchSettings({ rounds: 20 })
const ROWS = 1000

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-rows-'))
const storage = createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'rows.db')) })
const seed = await storage.transaction(async (tx) => {
  await tx.clubs.insert(aClub({ domain: 'bench' }))
  const template = await tx.achievements.insert(aNewTemplate({ club: 'bench' }))
  const snapshotId = await tx.snapshots.insert({ club: 'bench', achievementId: template.id, view: aView({ id: template.id }), createdAt: 1 })
  return { achievementId: template.id, snapshotId }
})

let lastId = 0
const issuance = (): NewIssuance => {
  const id = ++lastId
  return {
    id,
    club: 'bench',
    ...seed,
    recipient: { externalUserId: `u${id}`, name: `Recipient ${id}`, email: `r${id}@example.com` },
    evidences: [],
    mode: 'none',
    expiresAt: null,
    createdAt: 1,
    revokedAt: null,
    revocationReason: null,
  }
}
const JWT = 'x'.repeat(3900) // about the size of a real credential's JWT (bench:issue's jwtBytes)
const cpuUs = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}

type Side = 'one' | 'many'
const samples: Record<string, Record<Side, number[]>> = {}
async function timed(name: string, side: Side, work: () => Promise<unknown>): Promise<void> {
  const started = cpuUs()
  await work()
  ;((samples[name] ??= { one: [], many: [] })[side] as number[]).push((cpuUs() - started) / ROWS)
}

/** One unit: what a batch and its signing round write, all one way. */
async function round(side: Side): Promise<void> {
  await storage.transaction(async (tx: UnitOfWork) => {
    const issuances = Array.from({ length: ROWS }, issuance)
    const ids = issuances.map((i) => i.id)
    const events: Omit<ClubEvent, 'id'>[] = ids.map((id) => ({
      club: 'bench',
      type: 'issuance.issued',
      subject: { type: 'issuance', id: String(id) },
      occurredAt: 1,
    }))
    const jobs = ids.map((issuanceId) => ({ issuanceId, club: 'bench' }))
    const credentials = ids.map((id) => ({
      id: `c-${id}`,
      issuanceId: id,
      club: 'bench',
      jwt: JWT,
      issuedAt: 1,
      validUntil: null,
      statusListId: 1,
      statusListIndex: id,
      proof: { state: 'pending' as const },
    }))
    const one = side === 'one'
    await timed('issuances', side, async () => (one ? each(issuances, (i) => tx.issuances.insert(i)) : tx.issuances.insertMany(issuances)))
    await timed('events', side, async () => (one ? each(events, (e) => tx.events.append(e)) : tx.events.appendMany(events)))
    await timed('signingJobs.enqueue', side, async () => (one ? each(jobs, (j) => tx.signingJobs.enqueueMany([j])) : tx.signingJobs.enqueueMany(jobs)))
    const slots = ids.map((issuanceId) => ({ issuanceId, statusListId: 1, statusListIndex: issuanceId }))
    await timed('signingJobs.reserveStatusSlot', side, async () =>
      one ? each(slots, (s) => tx.signingJobs.reserveStatusSlots([s])) : tx.signingJobs.reserveStatusSlots(slots),
    )
    await timed('credentials', side, async () => (one ? each(credentials, (c) => tx.credentials.insertMany([c])) : tx.credentials.insertMany(credentials)))
    await timed('signingJobs.complete', side, async () => (one ? each(ids, (id) => tx.signingJobs.complete(id)) : tx.signingJobs.completeMany(ids)))
  })
}
async function each<T>(items: T[], write: (item: T) => Promise<unknown>): Promise<void> {
  for (const item of items) await write(item)
}

try {
  await round('one') // warm-up: statements, JIT
  await round('many')
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of (i % 2 === 0 ? ['one', 'many'] : ['many', 'one']) as Side[]) await round(side)
  }
  const result: Record<string, { oneUs: number; manyUs: number; ratio: number }> = {}
  let one = 0
  let many = 0
  const fixed = (value: number, digits = 2) => Number(value.toFixed(digits))
  for (const [name, side] of Object.entries(samples)) {
    result[name] = { oneUs: fixed(median(side.one)), manyUs: fixed(median(side.many)), ratio: fixed(median(side.many) / median(side.one)) }
    one += median(side.one)
    many += median(side.many)
  }
  result.total = { oneUs: fixed(one), manyUs: fixed(many), ratio: fixed(many / one) }
  console.log(JSON.stringify({ bench: 'rows', rows: ROWS, rounds: ROUNDS, unit: 'CPU µs per row (median)', ...result, node: process.version }))
} finally {
  await storage.close()
  rmSync(dir, { recursive: true, force: true })
}
