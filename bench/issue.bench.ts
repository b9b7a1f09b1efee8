/**
 * Issuing throughput: credentials signed and stored per second for 1,000-recipient batches, through the
 * HTTP API on SQLite and through the library in-process, beside raw single-thread node:crypto ES256
 * signing of the same payload in the same run. Prints one JSON line.
 *
 *   npx tsx bench/issue.bench.ts [--batches 5] [--warmup 1] [--signingThreads N] [--threadSweep 1]
 *
 * `--warmup N`: batches issued and signed before the measured ones (keys, statements, the JIT).
 * `httpOtherThreadsCpuUsBusiestFirst` lists each thread but the main one, CPU µs a credential: the signing
 * thread, then V8's compiler and GC helpers.
 * `--signingThreads N`: the Node signer's worker threads for the HTTP and library runs (default: one per
 * core beyond the first, the signer's own default). `--threadSweep 1` also measures the HTTP run with 0, 1
 * and 2 signing threads one after the other in the same run (`httpByThreads`), to compare them side by side.
 *
 * `--proofs 1` also measures what the Data Integrity proofs cost the JWTs (docs/data-integrity.md §
 * Signing), in the same run, the HTTP run three times over `--batches` batches: proofs off, proofs on the
 * main thread (`threads: 0`, how the proof round first ran), and proofs in `--proofThreads N` threads
 * (default: the signer's own). For each (`proofs`): the JWT rate (the batches' POSTs until their last JWT
 * is stored), the main thread's event-loop delay over that time (p99 and max, ms), how long the last proof
 * trails the last JWT, proofs per second from the first POST to the last proof stored, and `cpuUs`: CPU µs
 * a credential of the main thread and of the others from the first POST to the last proof stored (on a
 * shared machine the figure to compare: wall-clock rates move with the others' load). Each run first waits
 * for the proofs of its warm-up batch. `--proofBackground 0` runs the proof threads at the process's priority
 * rather than nice +10: on a machine shared with other people's processes, niced threads wait for theirs.
 */
import { createServer } from 'node:http'
import { createPrivateKey, sign } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { createIssuer, defaultUrls, type Issuer, type StoragePort } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner, toNodeListener } from '../adapters/node/index.ts'
import { createDataIntegritySigner } from '../adapters/node/data-integrity-signer.ts'
import Database from 'better-sqlite3'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { benchSettings } from './settings.ts'

const {
  batches: BATCHES,
  signingThreads: THREADS,
  threadSweep: SWEEP,
  warmup: WARMUP,
  proofs: PROOFS,
  proofThreads: PROOF_THREADS,
  proofBackground: PROOF_BACKGROUND,
} = benchSettings({
  batches: 5,
  warmup: 1,
  signingThreads: Math.max(0, availableParallelism() - 1),
  threadSweep: 0,
  proofs: 0,
  proofThreads: availableParallelism(),
  proofBackground: 1,
})
const RECIPIENTS = 1000

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-issue-'))

function recipients(batch: number) {
  return Array.from({ length: RECIPIENTS }, (_, i) => ({
    externalUserId: `b${batch}-u${i}`,
    name: `Recipient ${i}`,
    email: `r${batch}.${i}@example.com`,
  }))
}

/**
 * CPU time of this process's threads, in ms, from /proc (Linux; null elsewhere): the main thread, all the
 * others, and each of the others by its task id. Unlike wall time it hardly moves when other work shares the
 * cores, so it compares code changes on a busy machine. Clock ticks are 10 ms (CLK_TCK 100).
 */
function threadCpuMs(): { main: number; others: number; byTask: Record<string, number> } | null {
  try {
    let main = 0
    let others = 0
    const byTask: Record<string, number> = {}
    for (const task of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
      const ms = (Number(fields[11]) + Number(fields[12])) * 10 // utime + stime (fields 14 and 15 of stat)
      if (task === String(process.pid)) main += ms
      else {
        others += ms
        byTask[task] = ms
      }
    }
    return { main, others, byTask }
  } catch {
    return null
  }
}

function openStorage(name: string): StoragePort {
  return createSqliteStorage({ driver: betterSqlite3Driver(join(dir, `${name}.db`)) })
}

async function openIssuer(storage: StoragePort, port: number, threads = THREADS, proofThreads: number | null = null): Promise<Issuer> {
  const issuer = createIssuer({
    storage,
    masterKey: new Uint8Array(32).fill(1),
    urls: defaultUrls(port),
    signer: createNodeSigner({ threads }),
    dataIntegritySigner: proofThreads === null ? null : createDataIntegritySigner({ threads: proofThreads, background: PROOF_BACKGROUND === 1 }),
  })
  await issuer.clubs.create({ domain: 'bench', name: 'Bench Club' })
  await issuer.achievements.create('bench', {
    name: '벤치마크 배지',
    description: 'A template with the usual amount of text, tags and requirements.',
    tag: ['speed', 'throughput', 'sqlite', 'crypto'],
    criteria: {
      requirements: [
        { type: 'course_complete', description: 'Complete the course', url: 'https://example.com/course' },
        { type: 'score', description: 'Score 90 or more' },
        { type: 'attendance', description: 'Attend eight sessions' },
      ],
    },
  })
  return issuer
}

/** Credentials per second through the HTTP API: the POST of each batch until its last credential is stored. */
async function throughHttp(
  threads = THREADS,
  name = 'http',
  proofThreads: number | null = null,
): Promise<{
  perSecond: number
  payload: string
  jwt: string
  cpu: { main: number; others: number; busiestOthers: number[] } | null
  eventLoopDelayMs: { p99: number; max: number }
  proofs: { trailSeconds: number; perSecond: number } | null
}> {
  let issuer!: Issuer
  const server = createServer((req, res) => toNodeListener(issuer.fetch)(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const storage = openStorage(name)
  issuer = await openIssuer(storage, port, threads, proofThreads)
  // The same database file, read on its own connection: how many credentials wait for their proof.
  const reader = new Database(join(dir, `${name}.db`), { readonly: true })
  const unproven = reader.prepare('SELECT count(*) AS n FROM credentials WHERE proof IS NULL')
  const proofsDone = async () => {
    if (proofThreads === null) return
    while ((unproven.get() as { n: number }).n > 0) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  issuer.worker.start()
  const client = await issuer.clients.create({ club: 'bench' })
  const origin = `http://127.0.0.1:${port}`
  const token = (await (
    await request(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { authorization: 'Basic ' + btoa(`${client.client_id}:${client.client_secret}`), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
  ).body.json()) as { access_token: string }

  const issueBatch = async (batch: number) => {
    const response = await request(`${origin}/v2/clubs/bench/issuances`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ achievementFormId: 1, mode: 'none', recipients: recipients(batch) }),
    })
    const result = (await response.body.json()) as { summary: { ok: number }; results: { resourceId: number }[] }
    if (result.summary.ok !== RECIPIENTS) throw new Error(`batch ${batch}: ${JSON.stringify(result.summary)}`)
    return result.results[0]!.resourceId
  }
  const pendingDone = async () => {
    while ((await storage.signingJobs.count()) > 0) await new Promise((resolve) => setTimeout(resolve, 2))
  }

  // Warm-up: keys, statements, and the JIT, whose compiler threads otherwise bill the first batches.
  const firstId = await issueBatch(-1)
  await pendingDone()
  for (let batch = 1; batch < WARMUP; batch++) {
    await issueBatch(-1 - batch)
    await pendingDone()
  }
  await proofsDone()
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const started = performance.now()
  const cpuBefore = threadCpuMs()
  for (let batch = 0; batch < BATCHES; batch++) await issueBatch(batch)
  await pendingDone()
  const jwtsDone = performance.now()
  delay.disable()
  const seconds = (jwtsDone - started) / 1000
  await proofsDone()
  const proofsStored = performance.now()
  reader.close()
  const cpuAfter = threadCpuMs()
  const perCredential = (ms: number) => Number(((ms * 1000) / (BATCHES * RECIPIENTS)).toFixed(1))
  const cpu =
    cpuBefore && cpuAfter
      ? {
          main: perCredential(cpuAfter.main - cpuBefore.main),
          others: perCredential(cpuAfter.others - cpuBefore.others),
          // Thread names say little (Node names its worker threads and the GC's helpers alike): the busiest first.
          busiestOthers: Object.entries(cpuAfter.byTask)
            .map(([task, ms]) => perCredential(ms - (cpuBefore.byTask[task] ?? 0)))
            .filter((us) => us > 0)
            .sort((a, b) => b - a),
        }
      : null

  const credential = await issuer.issuances.credential('bench', firstId) // ids are random: read the one the answer gave
  await issuer.close()
  await new Promise((resolve) => server.close(resolve))
  return {
    perSecond: (BATCHES * RECIPIENTS) / seconds,
    payload: JSON.stringify(credential.payload),
    jwt: credential.jwt,
    cpu,
    eventLoopDelayMs: { p99: Number((delay.percentile(99) / 1e6).toFixed(1)), max: Number((delay.max / 1e6).toFixed(1)) },
    proofs:
      proofThreads === null
        ? null
        : {
            trailSeconds: Number(((proofsStored - jwtsDone) / 1000).toFixed(2)),
            perSecond: Math.round((BATCHES * RECIPIENTS * 1000) / (proofsStored - started)),
          },
  }
}

/** The same through the library: `issuer.issuances.issue` and `issuer.worker.drain()`. */
async function inProcess(): Promise<number> {
  const issuer = await openIssuer(openStorage('library'), 8787)
  await issuer.issuances.issue('bench', { achievementFormId: 1, mode: 'none', recipients: recipients(-1) })
  await issuer.worker.drain()
  const started = performance.now()
  for (let batch = 0; batch < BATCHES; batch++) {
    await issuer.issuances.issue('bench', { achievementFormId: 1, mode: 'none', recipients: recipients(batch) })
    await issuer.worker.drain()
  }
  const seconds = (performance.now() - started) / 1000
  await issuer.close()
  return (BATCHES * RECIPIENTS) / seconds
}

/** Raw single-thread ES256: node:crypto signing the same JWS signing input, nothing else. */
function rawSign(jwt: string, seconds = 2): number {
  const { privateKey } = { privateKey: createPrivateKey({ key: { kty: 'EC', crv: 'P-256', ...testKey() }, format: 'jwk' }) }
  const input = Buffer.from(jwt.slice(0, jwt.lastIndexOf('.')))
  let count = 0
  const started = performance.now()
  while (performance.now() - started < seconds * 1000) {
    sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' })
    count++
  }
  return count / seconds
}

function testKey() {
  // A fixed P-256 key: what is measured is signing speed, not key generation.
  return {
    x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
    y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
  }
}

try {
  const http = await throughHttp()
  const library = await inProcess()
  const raw = rawSign(http.jwt)
  const round = (value: number) => Math.round(value)
  const proofs: Record<string, unknown> = {}
  if (PROOFS) {
    for (const [label, proofThreads] of [
      ['off', null],
      ['mainThread', 0],
      [`threads${PROOF_THREADS}`, PROOF_THREADS],
    ] as const) {
      const run = await throughHttp(THREADS, `http-proofs-${label}`, proofThreads)
      proofs[label] = { jwtsPerSecond: round(run.perSecond), eventLoopDelayMs: run.eventLoopDelayMs, ...(run.proofs ?? {}), cpuUs: run.cpu }
    }
  }
  const sweep: Record<string, number> = {}
  const sweepCpu: Record<string, unknown> = {}
  if (SWEEP) {
    for (const threads of [0, 1, 2]) {
      const run = await throughHttp(threads, `http-threads-${threads}`)
      sweep[threads] = round(run.perSecond)
      sweepCpu[threads] = run.cpu
    }
  }
  console.log(
    JSON.stringify({
      bench: 'issue',
      batches: BATCHES,
      recipientsPerBatch: RECIPIENTS,
      httpCredentialsPerSecond: round(http.perSecond),
      libraryCredentialsPerSecond: round(library),
      rawSignsPerSecond: round(raw),
      httpToRaw: Number((http.perSecond / raw).toFixed(3)),
      libraryToRaw: Number((library / raw).toFixed(3)),
      signingThreads: THREADS,
      // CPU µs per credential in the HTTP run: the server's main thread (the bench's client included), and every other thread.
      httpMainThreadCpuUs: http.cpu?.main ?? null,
      httpOtherThreadsCpuUs: http.cpu?.others ?? null,
      httpOtherThreadsCpuUsBusiestFirst: http.cpu?.busiestOthers ?? null,
      ...(SWEEP ? { httpByThreads: sweep, httpCpuUsByThreads: sweepCpu } : {}),
      ...(PROOFS ? { proofs } : {}),
      payloadBytes: http.payload.length,
      jwtBytes: http.jwt.length,
      node: process.version,
    }),
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
