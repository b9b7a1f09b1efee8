/**
 * A signing round stays flat: milliseconds to claim 1,000 signing jobs and to read their
 * issuances, the two statements a round starts with, and to store the round's 1,000 credentials (the
 * unit that ends it), on a real SQLite file whose club holds 10,000 and then 1,000,000 issuances, 100,000
 * of them waiting to be signed (or all, when fewer) and the others signed. A round should cost the same
 * whatever the club has issued and however long the queue is. Prints one JSON line.
 *
 *   npx tsx bench/round.bench.ts [--sizes 2] [--rounds 50] [--stores 10]      (--sizes 1: the 10,000-row database only)
 *
 * The rows are seeded with plain SQL in one transaction, as in bench/lists.bench.ts; each signed issuance
 * gets a credential with a short JWT (what grows with the club is the indexes, not the JWTs). The timed
 * work goes through the storage port (`signingJobs.claim`, `issuances.findByIds`) in one unit each; every
 * claimed round is then put back as never claimed, so that each round claims from the same queue. Then
 * `--stores` rounds are claimed for good and stored as the worker stores them (`credentials.insertMany`
 * of 3,894-character JWTs with ids made as the product makes them, their `issuance.credential_issued` events,
 * `signingJobs.completeMany`), timed with their synced commit, with the bytes written to disk per
 * credential (`/proc/self/io`, Linux only). The figures are medians.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { benchSettings } from './settings.ts'
import { median, bytesWritten } from './measure.ts'
import { seedIssuances } from './seed-sqlite.ts'
import { timeOrderedUuid } from '../core/credentials/credential-id.ts'

const { sizes: SIZES, rounds: ROUNDS, stores: STORES } = benchSettings({ sizes: 2, rounds: 50, stores: 10 })
const ROW_COUNTS = [10_000, 1_000_000].slice(0, Math.max(1, SIZES))
const WAITING = 100_000
const ROUND = 1000
const CLUB = 'bench'
const NOW = Date.UTC(2030, 0, 1)

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-round-'))

/** Slots of a status list; the seeded credentials fill lists of this size one after the other. */
const LIST_SIZE = 131_072

/** `rows` issuances, the newest `WAITING` of them with a signing job, the others with a credential. */
function seed(file: string, rows: number): Promise<void> {
  return seedIssuances(file, CLUB, rows, (db) => {
    const job = db.prepare('INSERT INTO signing_jobs (issuance_id, club, issuance_seq) VALUES (?, ?, ?)')
    // The rowid is the issuance's sequence: the credentials' key since migration 0012 (an alias of rowid).
    const credential = db.prepare(
      `INSERT INTO credentials (rowid, issuance_id, id, club, jwt, issued_at, status_list_id, status_list_index)
       VALUES (?, ?, ?, ?, 'h.p.s', 0, ?, ?)`,
    )
    return ({ id, seq }) => {
      if (seq > rows - WAITING) job.run(id, CLUB, seq)
      // Ids as the product makes them: signed a millisecond apart, in sequence order, long before NOW.
      else credential.run(seq, id, timeOrderedUuid(NOW - 10 * rows + seq, randomBytes(16)), CLUB, 1 + Math.floor(seq / LIST_SIZE), seq % LIST_SIZE)
    }
  })
}

async function timeRounds(file: string, waiting: number) {
  const storage = createSqliteStorage({ driver: betterSqlite3Driver(file) })
  const side = new Database(file)
  side.pragma('busy_timeout = 10000')
  const reset = side.prepare('UPDATE signing_jobs SET lease_until = NULL, attempts = 0 WHERE issuance_id IN (SELECT value FROM json_each(?))')
  const claims: number[] = []
  const reads: number[] = []
  const stores: number[] = []
  const bytes: number[] = []
  try {
    for (let round = 0; round < ROUNDS + 5; round++) {
      let started = performance.now()
      const jobs = await storage.transaction((tx) => tx.signingJobs.claim(NOW, 60_000, ROUND), { concurrent: true })
      const claimMs = performance.now() - started
      started = performance.now()
      const issuances = await storage.transaction((tx) =>
        tx.issuances.findByIds(
          CLUB,
          jobs.map((item) => item.issuanceId),
        ),
      )
      const readMs = performance.now() - started
      if (jobs.length !== Math.min(ROUND, WAITING) || issuances.length !== jobs.length) throw new Error(`${jobs.length} jobs, ${issuances.length} issuances`)
      // Put the round back as never claimed (outside the timed part, by SQL: the port's release would leave a
      // lease that ended, the rarer kind of claimable job), so that every round claims from the same queue.
      reset.run(JSON.stringify(jobs.map((item) => item.issuanceId)))
      // The first rounds warm the statements and the page cache.
      if (round >= 5) {
        claims.push(claimMs)
        reads.push(readMs)
      }
    }
    const jwt = 'x'.repeat(3894)
    // Every stored round uses up 1,000 waiting jobs: at most as many rounds as the queue holds.
    const storeRounds = Math.min(STORES + 2, Math.floor(waiting / ROUND))
    for (let round = 0; round < storeRounds; round++) {
      const jobs = await storage.transaction((tx) => tx.signingJobs.claim(NOW, 60_000, ROUND), { concurrent: true })
      if (jobs.length !== ROUND) throw new Error(`store round ${round}: ${jobs.length} jobs`)
      // A list of its own per round, as a new list is opened when one fills.
      const listId = 1_000_000 + round
      const bytesBefore = bytesWritten()
      const started = performance.now()
      await storage.transaction(async (tx) => {
        await tx.credentials.insertMany(
          jobs.map((job, i) => ({
            id: timeOrderedUuid(NOW + round, randomBytes(16)),
            issuanceId: job.issuanceId,
            club: CLUB,
            jwt,
            issuedAt: NOW,
            validUntil: null,
            statusListId: listId,
            statusListIndex: i,
            proof: { state: 'pending' },
          })),
        )
        await tx.events.appendMany(
          jobs.map((job) => ({ club: CLUB, type: 'issuance.credential_issued', subject: { type: 'issuance', id: String(job.issuanceId) }, occurredAt: NOW })),
        )
        await tx.signingJobs.completeMany(jobs.map((job) => job.issuanceId))
      })
      const storeMs = performance.now() - started
      const bytesAfter = bytesWritten()
      if (round >= 2) {
        stores.push(storeMs)
        if (bytesBefore !== null && bytesAfter !== null) bytes.push((bytesAfter - bytesBefore) / jobs.length)
      }
    }
  } finally {
    side.close()
    await storage.close()
  }
  return {
    claimMs: Number(median(claims).toFixed(2)),
    readMs: Number(median(reads).toFixed(2)),
    storeMs: Number(median(stores).toFixed(2)),
    storeBytesWrittenPerCredential: bytes.length > 0 ? Math.round(median(bytes)) : null,
  }
}

try {
  const result: Record<string, unknown> = { bench: 'round', round: ROUND, rounds: ROUNDS }
  for (const rows of ROW_COUNTS) {
    const file = join(dir, `round-${rows}.db`)
    const seedStarted = performance.now()
    await seed(file, rows)
    result[`rows${rows}`] = {
      ...(await timeRounds(file, Math.min(rows, WAITING))),
      waiting: Math.min(rows, WAITING),
      seedSeconds: Number(((performance.now() - seedStarted) / 1000).toFixed(1)),
    }
    rmSync(file, { force: true })
    rmSync(`${file}-wal`, { force: true })
  }
  result.unit = 'ms per round of 1,000 (median); bytes written per credential stored (median)'
  result.node = process.version
  console.log(JSON.stringify(result))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
