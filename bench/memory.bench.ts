/**
 * The server's memory while a large CSV is issued: a real server process (`server/node.ts`,
 * role `all`, on a fresh data dir) signs in the background while the admin CLI issues `--recipients`
 * (100,000) recipients from one CSV, in batches of 1,000 (`npm run -s cli -- issue --club demo
 * --achievement N --csv FILE`, server/cli.ts), into the same SQLite file. The server's RSS is read from
 * /proc/PID/status (VmRSS) every 200 ms until the last credential is stored. Prints one JSON line: the RSS
 * before, the peak, the RSS after every tenth of the credentials stored, and the slope over the second
 * half, in MiB per 1,000 credentials (per batch): least squares over the floors (the lowest RSS within
 * each tenth, where the garbage collector came back to) and, for comparison, over every sample (which a
 * GC sawtooth tilts either way). `flat` when the floors' slope is under 0.25 MiB a batch (12.5 MiB over
 * 50 batches).
 *
 * Then, as the check that tells a leak from the collector's timing: the same issuing and signing in this
 * process through the library (`issuer.issuances.issue` and `issuer.worker.drain()`, `--heapBatches` (60)
 * batches of 1,000 on SQLite with the Node signer), the JS heap in use after a forced full GC every 10
 * batches (`heapAfterGcMiB`): a leak grows it batch after batch, garbage does not.
 *
 *   npx tsx bench/memory.bench.ts [--recipients 100000] [--heapBatches 60]
 *
 * Linux only (/proc). The CLI's own process is not measured: it ends with the command.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import Database from 'better-sqlite3'
import { createIssuer, defaultUrls } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner } from '../adapters/node/index.ts'
import { spawnNode } from '../test/support/node-process.ts'
import { demoClientFrom, ROOT } from '../test/support/server.ts'
import { benchSettings } from './settings.ts'

const { recipients: RECIPIENTS, heapBatches: HEAP_BATCHES } = benchSettings({ recipients: 100_000, heapBatches: 60 })
const SAMPLE_MS = 200
const MiB = 1024 * 1024

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1]) * 1024
}

/** Least-squares slope of y against x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length
  const mx = points.reduce((s, p) => s + p.x, 0) / n
  const my = points.reduce((s, p) => s + p.y, 0) / n
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0)
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0)
  return sxx === 0 ? 0 : sxy / sxx
}

function runCli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'cli', '--', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli exited ${code}: ${out}${err}`))))
  })
}

/** JS heap in use after a forced full GC, every 10 batches of library issuing and signing in this process. */
async function heapAfterGc(dir: string): Promise<number[]> {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const issuer = createIssuer({
    storage: createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'heap.db')) }),
    masterKey: new Uint8Array(32).fill(1),
    urls: defaultUrls(8787),
    signer: createNodeSigner(),
  })
  try {
    await issuer.clubs.create({ domain: 'heap', name: 'Heap' })
    const template = await issuer.achievements.create('heap', { name: 'Heap', description: 'Issued by the memory bench.' })
    const heap: number[] = []
    for (let b = 0; b < HEAP_BATCHES; b++) {
      const recipients = Array.from({ length: 1000 }, (_, i) => ({ externalUserId: `h${b}-${i}`, name: `Recipient ${i}`, email: `h${b}.${i}@bench.example` }))
      await issuer.issuances.issue(
        'heap',
        { achievementFormId: template.id, mode: 'none', recipients },
        { idempotencyKey: `heap-${b}`, idempotencyScope: 'cli' },
      )
      await issuer.worker.drain()
      if (b % 10 === 9) {
        gc()
        gc()
        heap.push(Number((process.memoryUsage().heapUsed / MiB).toFixed(2)))
      }
    }
    return heap
  } finally {
    await issuer.close()
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'clubcred-bench-memory-'))
const env = { CLUBCRED_DATA_DIR: dataDir }
const server = await spawnNode(env)
try {
  const client = demoClientFrom(server.stderr)
  if (!client) throw new Error('no demo client printed')
  const token = (
    await server.http('/oauth/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    })
  ).json.access_token as string
  const template = await server.http('/v2/clubs/demo/achievements', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Memory', description: 'Issued by the memory bench.', tag: ['bench'] }),
  })
  const templateId = template.json.data.id as number

  const csv = join(dataDir, 'recipients.csv')
  const lines = ['externalUserId,name,email']
  for (let i = 0; i < RECIPIENTS; i++) lines.push(`m${i},Recipient ${i},m${i}@bench.example`)
  writeFileSync(csv, lines.join('\n') + '\n')

  const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
  const stored = db.prepare('SELECT count(*) AS n FROM credentials')
  const count = () => Number((stored.get() as { n: number }).n)
  const pid = server.child.pid!
  const before = rssOf(pid)
  const samples: { at: number; rss: number; stored: number }[] = []
  const started = performance.now()
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      samples.push({ at: performance.now() - started, rss: rssOf(pid), stored: count() })
      await sleep(SAMPLE_MS)
    }
  })()
  const cli = JSON.parse(await runCli(['issue', '--club', 'demo', '--achievement', String(templateId), '--csv', csv], env)) as { summary: { ok: number } }
  if (cli.summary.ok !== RECIPIENTS) throw new Error(`the CLI issued ${cli.summary.ok} of ${RECIPIENTS}`)
  const issuedSeconds = (performance.now() - started) / 1000
  while (count() < RECIPIENTS) await sleep(SAMPLE_MS)
  const seconds = (performance.now() - started) / 1000
  await sleep(1000) // a few samples after the last credential
  sampling = false
  await sampler
  db.close()
  const heapAfterGcMiB = await heapAfterGc(dataDir)

  const mib = (bytes: number) => Number((bytes / MiB).toFixed(1))
  const tenth = RECIPIENTS / 10
  // Per tenth of the credentials stored: the RSS when it was reached, and the lowest RSS within it (the
  // floor the garbage collector came back to; a leak raises the floor, a GC cycle only the peaks).
  const tenths = Array.from({ length: 10 }, (_, k) => samples.filter((s) => s.stored >= k * tenth && s.stored < (k + 1) * tenth))
  const rssAtTenths = Array.from({ length: 10 }, (_, k) => {
    const sample = samples.find((s) => s.stored >= (k + 1) * tenth)
    return sample ? mib(sample.rss) : null
  })
  const floors = tenths.map((within) => (within.length > 0 ? Math.min(...within.map((s) => s.rss)) : null))
  const floorPoints = floors.flatMap((floor, k) => (k >= 5 && floor !== null ? [{ x: (k + 0.5) * (tenth / 1000), y: floor / MiB }] : []))
  const perBatch = Number(slope(floorPoints).toFixed(3))
  const secondHalf = samples.filter((s) => s.stored >= RECIPIENTS / 2 && s.stored < RECIPIENTS).map((s) => ({ x: s.stored / 1000, y: s.rss / MiB }))
  console.log(
    JSON.stringify({
      bench: 'memory',
      recipients: RECIPIENTS,
      batch: 1000,
      samples: samples.length,
      rssBeforeMiB: mib(before),
      peakRssMiB: mib(Math.max(...samples.map((s) => s.rss))),
      rssAtEachTenthStoredMiB: rssAtTenths,
      rssFloorEachTenthMiB: floors.map((floor) => (floor === null ? null : mib(floor))),
      secondHalfFloorMiBPerBatch: perBatch,
      secondHalfAllSamplesMiBPerBatch: Number(slope(secondHalf).toFixed(3)),
      flat: Math.abs(perBatch) < 0.25,
      cliSeconds: Number(issuedSeconds.toFixed(1)),
      allStoredSeconds: Number(seconds.toFixed(1)),
      heapAfterGcMiB,
      node: process.version,
    }),
  )
} finally {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
