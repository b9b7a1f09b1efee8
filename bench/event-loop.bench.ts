/**
 * Does one club's downloading stall every other club? The real Node server (`startNodeServer`, SQLite, the
 * PDF renderer) runs in this thread; eight clients in a worker thread, one per club, fetch certificate
 * PDFs and baked PNG badges of distinct issuances as fast as they are answered, while a ninth client asks
 * for a DID document (a cheap public request) every 50 ms. Each club's certificate design carries the
 * largest logo the server accepts: first a 2048×2048 16-bit RGBA PNG, else a 1024×1024 8-bit one (the
 * `logo` field says which). Measured on the server's thread: event-loop delay (perf_hooks
 * `monitorEventLoopDelay`, p50/p99/max), and the DID document's latency seen by the client (p50/p99/max).
 * Also the answers by status (and dropped connections by error code), so that a limit that refuses work
 * shows as such. Prints one JSON line.
 *
 *   npx tsx bench/event-loop.bench.ts [--seconds 10] [--clients 8] [--issuances 200]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { deflateSync } from 'node:zlib'
import { startNodeServer } from '../server/node.ts'
import { writePng } from '../core/files/png-chunks.ts'
import { benchSettings } from './settings.ts'

const { seconds: SECONDS, clients: CLIENTS, issuances: ISSUANCES } = benchSettings({ seconds: 10, clients: 8, issuances: 200 })

/** A flat-coloured PNG (compresses to a few KiB, however many pixels it declares). */
function flatPng(side: number, bitDepth: 8 | 16): Uint8Array {
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, side)
  view.setUint32(4, side)
  header.set([bitDepth, 6, 0, 0, 0], 8)
  const stride = side * 4 * (bitDepth / 8)
  const raw = new Uint8Array((stride + 1) * side)
  for (let y = 0; y < side; y++) raw.fill(0x7f, y * (stride + 1) + 1, (y + 1) * (stride + 1))
  return writePng([
    { type: 'IHDR', data: header },
    { type: 'IDAT', data: new Uint8Array(deflateSync(raw, { level: 9 })) },
    { type: 'IEND', data: new Uint8Array(0) },
  ])
}
const LOGOS = [
  { name: '2048x2048x16', png: flatPng(2048, 16) },
  { name: '1024x1024x8', png: flatPng(1024, 8) },
]

/**
 * The clients: one loop per club over its paths (PDF and PNG alternating, each issuance once before any
 * repeats), and the DID-document probe. Answers `{ statuses, probe: number[] }`.
 */
const LOAD_GENERATOR = `
const { parentPort, workerData } = require('node:worker_threads')
const { Agent, request } = require(workerData.undici)
// One connection per client and one for the probe, so that the probe never waits behind a download in
// the client's own pool: what it measures is the server.
const agents = workerData.clubs.map(() => new Agent({ connections: 1, keepAliveTimeout: 30000 }))
const probeAgent = new Agent({ connections: 1, keepAliveTimeout: 30000 })
const { origin, clubs, probePath, seconds } = workerData
const statuses = {}
const probe = []
let probeErrors = 0
const deadline = performance.now() + seconds * 1000
const client = async ({ token, paths }, index) => {
  let next = 0
  while (performance.now() < deadline) {
    let response
    try {
      response = await request(origin + paths[next++ % paths.length], { headers: { authorization: 'Bearer ' + token }, dispatcher: agents[index] })
      await response.body.arrayBuffer()
    } catch (error) {
      // A connection the server dropped is an outcome too: counted, and the client carries on.
      statuses[error.code || 'error'] = (statuses[error.code || 'error'] || 0) + 1
      continue
    }
    statuses[response.statusCode] = (statuses[response.statusCode] || 0) + 1
    // A refused client waits as told, as a well-behaved one would.
    if (response.statusCode === 429 || response.statusCode === 503) await new Promise((r) => setTimeout(r, 1000 * Number(response.headers['retry-after'] || 1)))
  }
}
const prober = async () => {
  while (performance.now() < deadline) {
    const started = performance.now()
    try {
      const response = await request(origin + probePath, { dispatcher: probeAgent })
      await response.body.arrayBuffer()
      if (response.statusCode !== 200) throw new Error('probe answered ' + response.statusCode)
      probe.push(performance.now() - started)
    } catch (error) {
      probeErrors++
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}
Promise.all([...clubs.map(client), prober()]).then(
  () => Promise.all([...agents, probeAgent].map((agent) => agent.close())).then(() => parentPort.postMessage({ statuses, probe, probeErrors })),
  (error) => parentPort.postMessage({ error: String(error) }),
)
`

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-loop-'))
const running = await startNodeServer({ env: { PORT: '0', HOST: '127.0.0.1', CLUBCRED_DATA_DIR: dir } })
try {
  const { issuer } = running
  const clubs: { token: string; paths: string[] }[] = []
  let logo = ''
  for (let c = 0; c < CLIENTS; c++) {
    const domain = `club${c}`
    await issuer.clubs.create({ domain, name: `클럽 ${c}` })
    const client = await issuer.clients.create({ club: domain })
    const token = await issuer.tokens.issue({ clientId: client.client_id, clientSecret: client.client_secret, grantType: 'client_credentials', scope: null })
    let design: { id: number } | null = null
    for (const candidate of LOGOS) {
      try {
        design = await issuer.designs.create(domain, {
          kind: 'certificate',
          name: 'With logo',
          layout: { logo: { mediaType: 'image/png', data: Buffer.from(candidate.png).toString('base64') } },
        })
        logo = candidate.name
        break
      } catch {
        // Refused by the image rules: try the next, smaller one.
      }
    }
    if (!design) throw new Error('no logo accepted')
    const template = await issuer.achievements.create(domain, {
      name: '체스 입문 과정',
      description: '체스의 기본 규칙과 전술을 익혔습니다.',
      achievementCertificateDesignId: design.id,
    })
    const recipients = Array.from({ length: ISSUANCES }, (_, i) => ({ externalUserId: `u${i}`, name: `회원 ${i}`, email: `u${i}@club${c}.example` }))
    const { result } = await issuer.issuances.issue(domain, { achievementFormId: template.id, mode: 'none', recipients })
    const ids = result.results.map((item) => (item as { resourceId: number }).resourceId)
    clubs.push({
      token: token.access_token,
      paths: ids.flatMap((id) => [`/v2/clubs/${domain}/issuances/${id}/file?format=pdf`, `/v2/clubs/${domain}/issuances/${id}/file?format=png`]),
    })
  }
  // The server's worker runs already: sign everything now, in this thread, then let it run on.
  await issuer.worker.stop()
  await issuer.worker.drain()
  issuer.worker.start()
  // Warm: the font loaded, the JIT warm, the DID document's key made.
  for (const club of clubs) await fetch(running.url + club.paths[0], { headers: { authorization: `Bearer ${club.token}` } }).then((r) => r.arrayBuffer())
  const probePath = '/open-badges/v3/issuers/club0/did.json'
  await fetch(running.url + probePath).then((r) => r.arrayBuffer())

  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  const worker = new Worker(LOAD_GENERATOR, {
    eval: true,
    workerData: { origin: running.url, clubs, probePath, seconds: SECONDS, undici: createRequire(import.meta.url).resolve('undici') },
  })
  const outcome = await new Promise<{ statuses: Record<string, number>; probe: number[]; probeErrors: number; error?: string }>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  histogram.disable()
  await worker.terminate()
  if (outcome.error) throw new Error(outcome.error)

  const ms = (ns: number) => Number((ns / 1e6).toFixed(1))
  const probe = outcome.probe.sort((a, b) => a - b)
  const at = (p: number) => Number((probe[Math.min(probe.length - 1, Math.floor(p * probe.length))] ?? NaN).toFixed(1))
  console.log(
    JSON.stringify({
      bench: 'event-loop',
      seconds: SECONDS,
      clients: CLIENTS,
      logo,
      loopDelayMsP50: ms(histogram.percentile(50)),
      loopDelayMsP99: ms(histogram.percentile(99)),
      loopDelayMsMax: ms(histogram.max),
      didMsP50: at(0.5),
      didMsP99: at(0.99),
      didMsMax: Number((probe.at(-1) ?? NaN).toFixed(1)),
      didRequests: probe.length,
      didErrors: outcome.probeErrors,
      fileAnswers: outcome.statuses,
      node: process.version,
    }),
  )
} finally {
  await running.close()
  rmSync(dir, { recursive: true, force: true })
}
