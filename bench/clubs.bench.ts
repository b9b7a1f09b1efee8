/**
 * Many clubs on one deployment: `--clubs` (100,000) clubs in one process on a real SQLite file, each
 * created and given one credential, issued and signed, through the library (`issuer.clubs.create`,
 * `issuer.achievements.create`, `issuer.issuances.issue` with one recipient, on SQLite with the Node
 * signer). The key store's caches and the status-list cache hold `--cacheSize` clubs (the issuer's
 * `clubCacheSize`, default 1,000): the process's memory should follow that, not the number of clubs.
 *
 * Prints one JSON line:
 * - the RSS and the JS heap in use after a forced full GC (`--expose-gc` set at run time, as in
 *   bench/memory.bench.ts) at the start and after every `--every` (10,000) clubs, and the peak RSS
 *   (VmHWM of /proc/self/status, Linux only);
 * - the ms to create a club, its template and issue its credential (median and p99 per club): the issue
 *   is the accepted issuance, its signing comes after; also the median of each `--every` clubs, and the
 *   seconds elapsed at each checkpoint;
 * - the signing: the worker drains the queue after every `--round` (1,000) clubs, so a round signs 1,000
 *   credentials of 1,000 clubs, each its first credential (the club's key is made and sealed then, and its
 *   status list opened), as a server's worker would when clubs issue one at a time; ms per round and per club;
 * - after the last club, `--probes` (1,000) random clubs: the ms of `GET .../issuers/{club}/did.json` and
 *   `GET .../issuers/{club}/status-lists/revocation`, then the same status list again at once (served from
 *   the cache). Requests go through `issuer.fetch`, the handler the Node server serves (`toNodeListener`),
 *   routing and headers included, without a socket.
 *
 *   npx tsx bench/clubs.bench.ts [--clubs 100000] [--cacheSize 1000] [--every 10000] [--round 1000] [--probes 1000]
 *
 * Every write is a synced commit (`synchronous = FULL`, as in production): a club costs four of them
 * (club, template, issuance, its key) besides its share of a signing round.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import Database from 'better-sqlite3'
import { createIssuer, defaultUrls, DEFAULTS } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner } from '../adapters/node/index.ts'
import { benchSettings } from './settings.ts'
import { median, percentile } from './measure.ts'

const {
  clubs: CLUBS,
  cacheSize: CACHE_SIZE,
  every: EVERY,
  round: ROUND,
  probes: PROBES,
} = benchSettings({ clubs: 100_000, cacheSize: DEFAULTS.clubCacheSize, every: 10_000, round: 1000, probes: 1000 })
if (CLUBS < 1 || EVERY < 1 || ROUND < 1 || PROBES < 1) throw new TypeError('bench: --clubs, --every, --round and --probes must be at least 1')
const MiB = 1024 * 1024

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const mib = (bytes: number) => Number((bytes / MiB).toFixed(1))
const ms = (value: number) => Number(value.toFixed(2))

function peakRss(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
  if (!match) throw new Error('no VmHWM in /proc/self/status')
  return Number(match[1]) * 1024
}

/** RSS and heap in use after a full collection: what stays, not the garbage of the last round. */
function memoryAfterGc(): { rss: number; heapUsed: number } {
  gc()
  gc()
  const { rss, heapUsed } = process.memoryUsage()
  return { rss: mib(rss), heapUsed: mib(heapUsed) }
}

const domain = (i: number) => `club-${i}`

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-clubs-'))
const file = join(dir, 'clubcred.db')
const issuer = createIssuer({
  storage: createSqliteStorage({ driver: betterSqlite3Driver(file) }),
  masterKey: new Uint8Array(32).fill(1),
  urls: defaultUrls(8787),
  signer: createNodeSigner(),
  clubCacheSize: CACHE_SIZE,
})
try {
  const at: number[] = [0]
  const start = memoryAfterGc()
  const rssAfterGcMiB = [start.rss]
  const heapUsedAfterGcMiB = [start.heapUsed]
  const secondsAt = [0]
  const createAndIssueMsP50At: number[] = []
  const createAndIssueMs: number[] = []
  const roundMs: number[] = []
  const started = performance.now()

  for (let i = 0; i < CLUBS; i++) {
    const club = domain(i)
    const began = performance.now()
    await issuer.clubs.create({ domain: club, name: `Club ${i}` })
    const template = await issuer.achievements.create(club, { name: 'Member', description: 'Issued by the clubs bench.' })
    await issuer.issuances.issue(club, {
      achievementFormId: template.id,
      mode: 'none',
      recipients: [{ externalUserId: `m${i}`, name: `Member ${i}`, email: `m${i}@bench.example` }],
    })
    createAndIssueMs.push(performance.now() - began)

    const done = i + 1
    if (done % ROUND === 0 || done === CLUBS || done % EVERY === 0) {
      const drainStarted = performance.now()
      await issuer.worker.drain()
      roundMs.push(performance.now() - drainStarted)
    }
    if (done % EVERY === 0 || done === CLUBS) {
      const memory = memoryAfterGc()
      at.push(done)
      rssAfterGcMiB.push(memory.rss)
      heapUsedAfterGcMiB.push(memory.heapUsed)
      secondsAt.push(Number(((performance.now() - started) / 1000).toFixed(1)))
      createAndIssueMsP50At.push(ms(median(createAndIssueMs.slice(at.at(-2)))))
    }
  }
  const seconds = (performance.now() - started) / 1000

  const db = new Database(file, { readonly: true })
  const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n)
  const credentials = count('SELECT count(DISTINCT club) AS n FROM credentials')
  const waiting = count('SELECT count(*) AS n FROM signing_jobs')
  db.close()
  if (credentials !== CLUBS || waiting !== 0) throw new Error(`${credentials} of ${CLUBS} clubs hold a credential, ${waiting} jobs wait`)

  const get = async (path: string): Promise<number> => {
    const began = performance.now()
    const response = await issuer.fetch(new Request(`${issuer.config.urls.public}${path}`))
    await response.text()
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`)
    return performance.now() - began
  }
  const didDocumentMs: number[] = []
  const statusListMs: number[] = []
  const statusListAgainMs: number[] = []
  for (let p = 0; p < PROBES; p++) {
    const club = domain(Math.floor(Math.random() * CLUBS))
    didDocumentMs.push(await get(`/open-badges/v3/issuers/${club}/did.json`))
    statusListMs.push(await get(`/open-badges/v3/issuers/${club}/status-lists/revocation`))
    statusListAgainMs.push(await get(`/open-badges/v3/issuers/${club}/status-lists/revocation`))
  }
  const afterProbes = memoryAfterGc()
  const sizeOf = (path: string) => {
    try {
      return statSync(path).size
    } catch {
      return 0
    }
  }

  console.log(
    JSON.stringify({
      bench: 'clubs',
      clubs: CLUBS,
      clubCacheSize: CACHE_SIZE,
      at,
      rssAfterGcMiB,
      heapUsedAfterGcMiB,
      peakRssMiB: mib(peakRss()),
      createAndIssueMsP50: ms(median(createAndIssueMs)),
      createAndIssueMsP99: ms(percentile(createAndIssueMs, 99)),
      createAndIssueMsP50At,
      secondsAt,
      signRound: ROUND,
      signRoundMsP50: ms(median(roundMs)),
      signMsPerClub: ms(roundMs.reduce((sum, value) => sum + value, 0) / CLUBS),
      probes: PROBES,
      didDocumentMsP50: ms(median(didDocumentMs)),
      didDocumentMsP99: ms(percentile(didDocumentMs, 99)),
      statusListMsP50: ms(median(statusListMs)),
      statusListMsP99: ms(percentile(statusListMs, 99)),
      statusListAgainMsP50: ms(median(statusListAgainMs)),
      statusListAgainMsP99: ms(percentile(statusListAgainMs, 99)),
      rssAfterProbesMiB: afterProbes.rss,
      heapUsedAfterProbesMiB: afterProbes.heapUsed,
      databaseMiB: mib(sizeOf(file) + sizeOf(`${file}-wal`)),
      seconds: Number(seconds.toFixed(1)),
      storage: 'sqlite/better-sqlite3',
      through: 'issuer.fetch',
      node: process.version,
    }),
  )
} finally {
  await issuer.close()
  rmSync(dir, { recursive: true, force: true })
}
