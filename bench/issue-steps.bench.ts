/**
 * The main thread's CPU per credential in the two storage-heavy steps of issuing, through the library on
 * a SQLite file: `issuer.issuances.issue` of 1,000 recipients (one unit) and `issuer.worker.drain()` after
 * it (claim and store; signing runs on the signer's thread and is not counted). The thread's CPU comes
 * from /proc (Linux), so another process's load moves it less than wall time. To compare two commits, run
 * this in a checkout of each, alternating (docs/benchmarks/history.md § Multi-row writes). Prints one JSON line.
 *
 *   npx tsx bench/issue-steps.bench.ts [--batches 15]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIssuer, defaultUrls } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner } from '../adapters/node/index.ts'
import { benchSettings } from './settings.ts'

const { batches: BATCHES } = benchSettings({ batches: 15 })
const RECIPIENTS = 1000

/** This process's main-thread CPU in ms (utime + stime, clock ticks of 10 ms). */
function mainThreadMs(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-steps-'))
const issuer = createIssuer({
  storage: createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'steps.db')) }),
  masterKey: new Uint8Array(32).fill(1),
  urls: defaultUrls(8787),
  signer: createNodeSigner({ threads: 1 }),
})
const recipients = (batch: number) =>
  Array.from({ length: RECIPIENTS }, (_, i) => ({ externalUserId: `b${batch}-u${i}`, name: `Recipient ${i}`, email: `r${batch}.${i}@example.com` }))

try {
  await issuer.clubs.create({ domain: 'bench', name: 'Bench Club' })
  const { id } = await issuer.achievements.create('bench', { name: 'Bench badge', description: 'A template.' })
  let issueMs = 0
  let drainMs = 0
  for (let batch = -2; batch < BATCHES; batch++) {
    // The first two batches warm up: keys, statements, JIT.
    const started = mainThreadMs()
    await issuer.issuances.issue('bench', { achievementFormId: id, mode: 'none', recipients: recipients(batch) })
    const issued = mainThreadMs()
    await issuer.worker.drain()
    if (batch >= 0) {
      issueMs += issued - started
      drainMs += mainThreadMs() - issued
    }
  }
  const perCredential = (ms: number) => Number(((ms * 1000) / (BATCHES * RECIPIENTS)).toFixed(1))
  console.log(
    JSON.stringify({
      bench: 'issue-steps',
      batches: BATCHES,
      recipientsPerBatch: RECIPIENTS,
      issueMainThreadCpuUs: perCredential(issueMs),
      drainMainThreadCpuUs: perCredential(drainMs),
      node: process.version,
    }),
  )
} finally {
  await issuer.close()
  rmSync(dir, { recursive: true, force: true })
}
