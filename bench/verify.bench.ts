/**
 * Public verification throughput: verdicts per second (GET {public_url}/open-badges/v3/achievements/{id}/verify
 * over many credentials) through a real node:http server on SQLite, beside the same server's cheapest
 * answer (GET /nope, a 404 problem document) in the same run, so that the ratio says what verification
 * costs over the bare HTTP stack. Prints one JSON line.
 *
 * The requests come from an undici Pool in a worker thread; each route gets `--seconds` of load after a
 * warm-up, in alternating slices.
 *
 *   npx tsx bench/verify.bench.ts [--seconds 3] [--warmup 1] [--rounds 3] [--connections 32] [--concurrency 128] [--credentials 200]
 */
import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { createIssuer, defaultUrls, type Issuer } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner, toNodeListener } from '../adapters/node/index.ts'
import { benchSettings } from './settings.ts'

const {
  seconds: SECONDS,
  warmup: WARMUP,
  connections: CONNECTIONS,
  concurrency: CONCURRENCY,
  credentials: CREDENTIALS,
  rounds: ROUNDS,
} = benchSettings({ seconds: 3, warmup: 1, connections: 32, concurrency: 128, credentials: 200, rounds: 3 })

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-verify-'))
const signer = createNodeSigner()

/**
 * The load generator runs in a worker thread, so that the server's thread is the server's alone: an
 * undici Pool of CONNECTIONS keep-alive connections with CONCURRENCY requests in flight. Each message
 * `{ paths, status, seconds }` answers `{ completed, elapsed }`; every answer must have `status`.
 */
const LOAD_GENERATOR = `
const { parentPort, workerData } = require('node:worker_threads')
const { Pool } = require(workerData.undici)
const pool = new Pool(workerData.origin, { connections: workerData.connections, pipelining: 1, keepAliveTimeout: 30000 })
parentPort.on('message', async ({ paths, status, seconds }) => {
  if (paths === null) return pool.close().then(() => parentPort.close())
  let completed = 0
  let next = 0
  let failure = null
  const deadline = performance.now() + seconds * 1000
  const loop = async () => {
    while (performance.now() < deadline && failure === null) {
      const path = paths[next++ % paths.length]
      const response = await pool.request({ method: 'GET', path })
      await response.body.arrayBuffer()
      if (response.statusCode !== status) failure = 'GET ' + path + ' answered ' + response.statusCode + ', expected ' + status
      completed++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: workerData.concurrency }, loop))
  parentPort.postMessage({ completed, elapsed: (performance.now() - started) / 1000, failure })
})
`

function startLoadGenerator(origin: string) {
  const worker = new Worker(LOAD_GENERATOR, {
    eval: true,
    workerData: { origin, connections: CONNECTIONS, concurrency: CONCURRENCY, undici: createRequire(import.meta.url).resolve('undici') },
  })
  return {
    /** Requests completed and seconds taken for `seconds` of load on `paths`. */
    run(paths: string[], status: number, seconds: number): Promise<{ completed: number; elapsed: number }> {
      return new Promise((resolve, reject) => {
        worker.once('error', reject)
        worker.once('message', (result: { completed: number; elapsed: number; failure: string | null }) => {
          worker.off('error', reject)
          if (result.failure) reject(new Error(result.failure))
          else resolve(result)
        })
        worker.postMessage({ paths, status, seconds })
      })
    },
    async close() {
      worker.postMessage({ paths: null })
      await new Promise((resolve) => worker.once('exit', resolve))
    },
  }
}

let issuer!: Issuer
const server = createServer((req, res) => toNodeListener(issuer.fetch)(req, res))
server.keepAliveTimeout = 30_000
try {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  issuer = createIssuer({
    storage: createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'clubcred.db')) }),
    masterKey: new Uint8Array(32).fill(3),
    urls: defaultUrls(port, '127.0.0.1'),
    signer,
  })
  await issuer.clubs.create({ domain: 'bench', name: 'Bench Club' })
  const template = await issuer.achievements.create('bench', {
    name: '벤치마크 배지',
    description: 'A template with the usual amount of text, tags and requirements.',
    tag: ['speed', 'verification', 'sqlite'],
    criteria: { requirements: [{ type: 'course_complete', description: 'Complete the course', url: 'https://example.com/course' }] },
  })
  const recipients = Array.from({ length: CREDENTIALS }, (_, i) => ({ externalUserId: `u${i}`, name: `Recipient ${i}`, email: `r${i}@example.com` }))
  const { result } = await issuer.issuances.issue('bench', { achievementFormId: template.id, mode: 'none', recipients })
  await issuer.worker.drain()
  const ids = result.results.map((item) => (item as { resourceId: number }).resourceId)
  if (ids.length !== CREDENTIALS) throw new Error(`issued ${ids.length} of ${CREDENTIALS}`)
  // A few of them revoked, as in life: the verdict computes status on every request.
  for (const id of ids.slice(0, Math.ceil(ids.length / 20))) await issuer.issuances.revoke('bench', id)

  const sample = await issuer.verification.verify(ids.at(-1)!)
  if (!sample.isValid || sample.status !== 'valid') throw new Error(`a fresh credential does not verify: ${JSON.stringify(sample)}`)

  const load = startLoadGenerator(`http://127.0.0.1:${port}`)
  const verifyPaths = ids.map((id) => `/open-badges/v3/achievements/${id}/verify`)
  const staticPaths = ['/nope']

  // Warm-up of both routes (JIT, statements, the signature-verdict cache, sockets). Then the measured
  // runs, alternating in ROUNDS slices so that both routes see the same machine load.
  await load.run(verifyPaths, 200, WARMUP)
  await load.run(staticPaths, 404, WARMUP)
  const totals = { verify: { completed: 0, elapsed: 0 }, static: { completed: 0, elapsed: 0 } }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, paths, status] of [
      ['verify', verifyPaths, 200],
      ['static', staticPaths, 404],
    ] as const) {
      const { completed, elapsed } = await load.run(paths, status, SECONDS / ROUNDS)
      totals[name].completed += completed
      totals[name].elapsed += elapsed
    }
  }
  await load.close()
  const verifyPerSecond = totals.verify.completed / totals.verify.elapsed
  const staticPerSecond = totals.static.completed / totals.static.elapsed

  console.log(
    JSON.stringify({
      bench: 'verify',
      verifyPerSecond: Math.round(verifyPerSecond),
      staticPerSecond: Math.round(staticPerSecond),
      ratio: Number((verifyPerSecond / staticPerSecond).toFixed(3)),
      node: process.version,
    }),
  )
} finally {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await issuer?.close()
  await signer.close()
  rmSync(dir, { recursive: true, force: true })
}
