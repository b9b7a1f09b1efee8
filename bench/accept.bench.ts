/**
 * A batch's acceptance stays flat: milliseconds to accept a batch of 1,000 new recipients
 * (`issuer.issuances.issue` on a real SQLite file: the already-issued checks, the issuance rows, their
 * events and signing jobs, and the synced commit) and the bytes that unit wrote to disk, on a club that
 * already holds 10,000 and then 1,000,000 issuances. Prints one JSON line.
 *
 *   npx tsx bench/accept.bench.ts [--sizes 2] [--batches 10]      (--sizes 1: the 10,000-row database only)
 *
 * The held issuances are seeded with plain SQL (bench/seed-sqlite.ts). The recipients of each batch are
 * new, with random external ids and e-mail addresses as real ones are, so their index entries land all
 * over the indexes. Bytes written come from `/proc/self/io` (`write_bytes`: the WAL, and the database file
 * when a commit checkpoints); Linux only, `null` elsewhere. Figures are medians over the batches, after
 * two that warm the statements and the page cache.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIssuer, defaultUrls } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { benchSettings } from './settings.ts'
import { median, bytesWritten } from './measure.ts'
import { seedIssuances } from './seed-sqlite.ts'

const { sizes: SIZES, batches: BATCHES } = benchSettings({ sizes: 2, batches: 10 })
const ROW_COUNTS = [10_000, 1_000_000].slice(0, Math.max(1, SIZES))
const RECIPIENTS = 1000
const WARMUP = 2
const CLUB = 'bench'

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-accept-'))

async function timeBatches(file: string) {
  const issuer = createIssuer({
    storage: createSqliteStorage({ driver: betterSqlite3Driver(file) }),
    masterKey: new Uint8Array(32).fill(1),
    urls: defaultUrls(8787),
  })
  const times: number[] = []
  const bytes: number[] = []
  try {
    for (let batch = 0; batch < BATCHES + WARMUP; batch++) {
      const recipients = Array.from({ length: RECIPIENTS }, (_, i) => {
        const member = randomUUID()
        return { externalUserId: member, name: `Recipient ${i}`, email: `${member.slice(0, 13)}@example.com` }
      })
      const bytesBefore = bytesWritten()
      const started = performance.now()
      const result = await issuer.issuances.issue(CLUB, { achievementFormId: 1, mode: 'none', recipients })
      const ms = performance.now() - started
      const bytesAfter = bytesWritten()
      if (result.result.summary.ok !== RECIPIENTS) throw new Error(`batch ${batch}: ${JSON.stringify(result.result.summary)}`)
      if (batch >= WARMUP) {
        times.push(ms)
        if (bytesBefore !== null && bytesAfter !== null) bytes.push((bytesAfter - bytesBefore) / RECIPIENTS)
      }
    }
  } finally {
    await issuer.close()
  }
  return { acceptMs: Number(median(times).toFixed(1)), bytesWrittenPerIssuance: bytes.length > 0 ? Math.round(median(bytes)) : null }
}

try {
  const result: Record<string, unknown> = { bench: 'accept', recipientsPerBatch: RECIPIENTS, batches: BATCHES }
  for (const rows of ROW_COUNTS) {
    const file = join(dir, `accept-${rows}.db`)
    const seedStarted = performance.now()
    await seedIssuances(file, CLUB, rows, () => () => {})
    const seedSeconds = Number(((performance.now() - seedStarted) / 1000).toFixed(1))
    result[`rows${rows}`] = { ...(await timeBatches(file)), seedSeconds }
    rmSync(file, { force: true })
    rmSync(`${file}-wal`, { force: true })
  }
  result.unit = 'ms per batch of 1,000 (median); bytes written per issuance (median)'
  result.node = process.version
  console.log(JSON.stringify(result))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
