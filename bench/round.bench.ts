/**
 * A signing round stays flat (issue 19): milliseconds to claim 1,000 signing jobs and to read their
 * issuances, the two statements a round starts with, on a real SQLite file whose club holds 10,000 and
 * then 1,000,000 issuances, 100,000 of them waiting to be signed (or all, when fewer). A round should
 * cost the same whatever the club has issued and however long the queue is. Prints one JSON line.
 *
 *   npx tsx bench/round.bench.ts [--sizes 2] [--rounds 50]      (--sizes 1: the 10,000-row database only)
 *
 * The rows are seeded with plain SQL in one transaction, as in bench/lists.bench.ts. The timed work goes
 * through the storage port (`signingJobs.claim`, `issuances.findByIds`) in one unit each; every claimed
 * round is then put back as never claimed, so that each round claims from the same queue. The figure is
 * the median.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { benchSettings } from './settings.ts'
import { seedIssuances } from './seed-sqlite.ts'

const { sizes: SIZES, rounds: ROUNDS } = benchSettings({ sizes: 2, rounds: 50 })
const ROW_COUNTS = [10_000, 1_000_000].slice(0, Math.max(1, SIZES))
const WAITING = 100_000
const ROUND = 1000
const CLUB = 'bench'
const NOW = Date.UTC(2030, 0, 1)

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-round-'))

/** `rows` issuances, the newest `WAITING` of them with a signing job. */
function seed(file: string, rows: number): Promise<void> {
  return seedIssuances(file, CLUB, rows, (db) => {
    const job = db.prepare('INSERT INTO signing_jobs (issuance_id, club, issuance_seq) VALUES (?, ?, ?)')
    return ({ id, seq }) => {
      if (seq > rows - WAITING) job.run(id, CLUB, seq)
    }
  })
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function timeRounds(file: string) {
  const storage = createSqliteStorage({ driver: betterSqlite3Driver(file) })
  const side = new Database(file)
  side.pragma('busy_timeout = 10000')
  const reset = side.prepare('UPDATE signing_jobs SET lease_until = NULL, attempts = 0 WHERE issuance_id IN (SELECT value FROM json_each(?))')
  const claims: number[] = []
  const reads: number[] = []
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
  } finally {
    side.close()
    await storage.close()
  }
  return { claimMs: Number(median(claims).toFixed(2)), readMs: Number(median(reads).toFixed(2)) }
}

try {
  const result: Record<string, unknown> = { bench: 'round', round: ROUND, rounds: ROUNDS }
  for (const rows of ROW_COUNTS) {
    const file = join(dir, `round-${rows}.db`)
    const seedStarted = performance.now()
    await seed(file, rows)
    result[`rows${rows}`] = {
      ...(await timeRounds(file)),
      waiting: Math.min(rows, WAITING),
      seedSeconds: Number(((performance.now() - seedStarted) / 1000).toFixed(1)),
    }
    rmSync(file, { force: true })
  }
  result.unit = 'ms per round of 1,000 (median)'
  result.node = process.version
  console.log(JSON.stringify(result))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
