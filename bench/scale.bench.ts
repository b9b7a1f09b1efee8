/**
 * Credentials per second end to end, through real server processes (`server/node.ts`), in one run: SQLite
 * in one process (role `all`); PostgreSQL with one `api` node and one `worker`; one `api` node and two
 * `worker`s; and two clubs issuing at once (one `api`, one `worker`; two calls in flight in every
 * scenario, one per club here). The clock runs from the first issue
 * request until the last credential is stored, read from the database itself. Each scenario also gives the
 * rate of the first and of the last fifth of its credentials (a queue that slows as it is used shows as a
 * last fifth slower than the first) and the CPU each process spent per credential: the `api` node, the
 * worker(s) and the PostgreSQL server (the postmaster with every backend, less the bench's own counting
 * backend). Prints one JSON line.
 *
 *   npx tsx bench/scale.bench.ts [--recipients 20000] [--batch 1000] [--rounds 3] [--statements 0]
 *
 * The scenarios run `--rounds` times, in turn (all four, then all four again), and each figure is the
 * median of its rounds: on two cores shared by three processes and the database, one run of a scenario
 * varies by a fifth from the next, which a single run would report as a difference between scenarios.
 * Every round's rate is kept beside the medians (`rounds`), and the ratio of PostgreSQL to SQLite is
 * given per round too.
 *
 * With `--statements N`, the server loads pg_stat_statements and, after each PostgreSQL scenario, the N
 * statements that took the most server time are written to stderr: where the database's share goes.
 *
 * With `--proofs 1`, each scenario also waits for every credential's Data Integrity proof (the JSON-LD
 * form, made by the worker after the JWT; docs/data-integrity.md § Signing) and gives the rate of complete
 * credentials, both forms, from the first issue request until the last proof is stored
 * (`completePerSecond`), its ratio to the JWT rate (`completeOverJwt`) and how long the last proof trailed
 * the last JWT (`proofTrailSeconds`). `--postgresOnly 1` leaves out the SQLite scenario.
 *
 * The PostgreSQL server is the test harness's (test/support/postgres.ts): Debian's PostgreSQL, started in
 * a temporary directory with fsync on, on loopback.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import postgres from 'postgres'
import { createPostgresStorage } from '../adapters/postgres/index.ts'
import { defaultUrls } from '../core/config.ts'
import { createCoreIssuer } from '../core/create-core-issuer.ts'
import { loadMasterKey } from '../server/master-key.ts'
import { startPostgres } from '../test/support/postgres.ts'
import { spawnNode, type NodeProcess } from '../test/support/node-process.ts'
import { basic } from '../test/support/tokens.ts'
import { demoClientFrom } from '../test/support/server.ts'
import { benchSettings } from './settings.ts'

const {
  recipients: RECIPIENTS,
  batch: BATCH,
  statements: STATEMENTS,
  rounds: ROUNDS,
  proofs: PROOFS,
  postgresOnly: POSTGRES_ONLY,
} = benchSettings({ recipients: 20_000, batch: 1000, statements: 0, rounds: 3, proofs: 0, postgresOnly: 0 })
/** A scenario that has not finished by then has stalled: the bench stops rather than wait for ever. */
const SCENARIO_LIMIT_MS = 15 * 60_000
const SAMPLE_MS = 100
/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat. */
const TICKS_PER_SECOND = 100

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Client {
  club: string
  client_id: string
  client_secret: string
}

interface Setup {
  api: NodeProcess
  workers: NodeProcess[]
  clients: Client[]
  credentials(): Promise<number>
  /** Credentials whose Data Integrity proof is stored. */
  proven(): Promise<number>
  /** CPU seconds the database server has spent so far (null for SQLite: it runs inside the api process). */
  databaseCpu(): Promise<number | null>
  /** Transactions committed in the database and WAL bytes written so far (null for SQLite). */
  databaseWrites(): Promise<{ commits: number; walBytes: number } | null>
  close(): Promise<void>
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): index 0 is the state. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

/** utime + stime of one process, in seconds; with `reaped`, also that of its children it has waited for. */
function cpuOf(pid: number, { reaped = false } = {}): number {
  const f = statFields(pid)
  if (!f) return 0
  const ticks = Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)
  return ticks / TICKS_PER_SECOND
}

/** The postmaster and every live backend, plus the backends that have exited (the postmaster reaps them). */
function serverCpu(postmaster: number, exclude: number): number {
  let total = cpuOf(postmaster, { reaped: true })
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === exclude) continue
    const f = statFields(pid)
    if (f && Number(f[1]) === postmaster) total += cpuOf(pid)
  }
  return total
}

async function tokenOf(api: NodeProcess, client: Client): Promise<string> {
  const response = await api.http('/oauth/token', {
    method: 'POST',
    headers: { authorization: basic(client.client_id, client.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  })
  return response.json.access_token as string
}

/**
 * Issues `count` recipients to one club in calls of BATCH, `inFlight` calls at once. Every scenario has
 * two calls in flight in all (two clubs: one each), so that two clubs are compared with one club under
 * the same load, and what differs is only whether their units wait for each other.
 */
async function issueAll(api: NodeProcess, client: Client, count: number, prefix: string, inFlight: number): Promise<void> {
  const headers = { authorization: `Bearer ${await tokenOf(api, client)}`, 'content-type': 'application/json' }
  const template = await api.http(`/v2/clubs/${client.club}/achievements`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Scale', description: 'Issued by the scale bench.', tag: ['bench'] }),
  })
  if (template.status !== 201) throw new Error(`achievement answered ${template.status}: ${template.text}`)
  const templateId = template.json.data.id as number
  const queue = Array.from({ length: Math.ceil(count / BATCH) }, (_, b) => b)
  const post = async (b: number) => {
    const recipients = Array.from({ length: Math.min(BATCH, count - b * BATCH) }, (_, i) => ({
      externalUserId: `${prefix}${b}-${i}`,
      name: `Recipient ${i}`,
      email: `r${b}.${i}@bench.example`,
    }))
    const response = await api.http(`/v2/clubs/${client.club}/issuances`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ achievementFormId: templateId, mode: 'none', recipients }),
    })
    if (response.status !== 200) throw new Error(`issue answered ${response.status}: ${response.text}`)
  }
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let b = queue.shift(); b !== undefined; b = queue.shift()) await post(b)
    }),
  )
}

/** Seconds from `started` at which the stored count first reached `target`. */
function reached(samples: [number, number][], target: number): number {
  return samples.find(([, n]) => n >= target)![0]
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits))

async function measure(setup: Setup): Promise<Record<string, number | null>> {
  const perClub = Math.ceil(RECIPIENTS / setup.clients.length)
  const total = perClub * setup.clients.length
  const cpu = () => ({ api: cpuOf(setup.api.child.pid!), workers: setup.workers.reduce((sum, w) => sum + cpuOf(w.child.pid!), 0) })
  const cpuBefore = cpu()
  const dbBefore = await setup.databaseCpu()
  const writesBefore = await setup.databaseWrites()
  const started = performance.now()
  const seconds = () => (performance.now() - started) / 1000
  const samples: [number, number][] = [[0, 0]]
  const inFlight = Math.max(1, Math.floor(2 / setup.clients.length))
  const issuing = Promise.all(setup.clients.map((client, c) => issueAll(setup.api, client, perClub, `c${c}b`, inFlight)))
  let failed: unknown
  issuing.catch((error: unknown) => (failed = error))
  for (let count = 0; count < total;) {
    if (failed) throw failed
    if (seconds() * 1000 > SCENARIO_LIMIT_MS) throw new Error(`stalled at ${count} of ${total} credentials`)
    await sleep(SAMPLE_MS)
    count = await setup.credentials()
    samples.push([seconds(), count])
  }
  await issuing
  const elapsed = samples.at(-1)![0]
  let complete = elapsed
  if (PROOFS) {
    for (let count = await setup.proven(); count < total; count = await setup.proven()) {
      if (seconds() * 1000 > SCENARIO_LIMIT_MS) throw new Error(`stalled at ${count} of ${total} proofs`)
      await sleep(SAMPLE_MS)
    }
    complete = seconds()
  }
  const cpuAfter = cpu()
  const dbAfter = await setup.databaseCpu()
  const writesAfter = await setup.databaseWrites()
  const fifth = total / 5
  const microsPerCredential = (after: number, before: number) => round(((after - before) * 1e6) / total)
  return {
    credentialsPerSecond: round(total / elapsed),
    ...(PROOFS
      ? { completePerSecond: round(total / complete), completeOverJwt: round(elapsed / complete, 2), proofTrailSeconds: round(complete - elapsed, 1) }
      : {}),
    firstFifthPerSecond: round(fifth / reached(samples, fifth)),
    lastFifthPerSecond: round(fifth / Math.max(elapsed - reached(samples, total - fifth), SAMPLE_MS / 1000)),
    apiCpuMicrosPerCredential: microsPerCredential(cpuAfter.api, cpuBefore.api),
    workerCpuMicrosPerCredential: setup.workers.length > 0 ? microsPerCredential(cpuAfter.workers, cpuBefore.workers) : null,
    postgresCpuMicrosPerCredential: dbAfter === null || dbBefore === null ? null : microsPerCredential(dbAfter, dbBefore),
    postgresCommitsPerCredential: writesAfter && writesBefore ? round((writesAfter.commits - writesBefore.commits) / total, 3) : null,
    postgresWalBytesPerCredential: writesAfter && writesBefore ? round((writesAfter.walBytes - writesBefore.walBytes) / total) : null,
  }
}

async function sqliteSetup(): Promise<Setup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clubcred-bench-scale-'))
  const api = await spawnNode({ CLUBCRED_DATA_DIR: dataDir })
  const client = demoClientFrom(api.stderr)
  if (!client) throw new Error('no demo client printed')
  const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
  const count = db.prepare('SELECT count(*) AS n FROM credentials')
  const proven = db.prepare("SELECT count(*) AS n FROM credentials WHERE proof IS NOT NULL AND proof <> ''")
  return {
    api,
    workers: [],
    clients: [{ club: 'demo', ...client }],
    credentials: async () => Number((count.get() as { n: number }).n),
    proven: async () => Number((proven.get() as { n: number }).n),
    databaseCpu: async () => null,
    databaseWrites: async () => null,
    async close() {
      db.close()
      await api.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function postgresSetup(url: string, { workers, clubs }: { workers: number; clubs: number }): Promise<Setup> {
  const masterKey = randomBytes(32).toString('hex')
  const env = { CLUBCRED_DATABASE_URL: url, CLUBCRED_MASTER_KEY: masterKey }
  const api = await spawnNode({ ...env, CLUBCRED_ROLE: 'api' })
  const demo = demoClientFrom(api.stderr)
  if (!demo) throw new Error('no demo client printed')
  const clients: Client[] = [{ club: 'demo', ...demo }]
  if (clubs > 1) {
    const admin = createCoreIssuer({ storage: await createPostgresStorage({ url }), masterKey: loadMasterKey('', masterKey), urls: defaultUrls(8787) })
    for (let c = 1; c < clubs; c++) {
      await admin.clubs.create({ domain: `club${c}`, name: `Club ${c}` })
      clients.push({ club: `club${c}`, ...(await admin.clients.create({ club: `club${c}` })) })
    }
    await admin.close()
  }
  const started = await Promise.all(Array.from({ length: workers }, () => spawnNode({ ...env, CLUBCRED_ROLE: 'worker' })))
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: 'clubcred' } })
  const pid = (await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid
  if (STATEMENTS > 0) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`
    await sql`SELECT pg_stat_statements_reset()`
  }
  const postmaster = Number(statFields(pid)![1])
  return {
    api,
    workers: started,
    clients,
    credentials: async () => Number((await sql`SELECT count(*) AS n FROM credentials`)[0]!.n),
    proven: async () => Number((await sql`SELECT count(*) AS n FROM credentials WHERE proof IS NOT NULL AND proof <> ''`)[0]!.n),
    databaseCpu: async () => serverCpu(postmaster, pid),
    async databaseWrites() {
      // The statistics are flushed by each backend at its commits, at most once a second: wait for them.
      await sleep(1100)
      const [row] = await sql`SELECT xact_commit::int8 AS commits, pg_current_wal_lsn() - '0/0'::pg_lsn AS wal
        FROM pg_stat_database WHERE datname = current_database()`
      return { commits: Number(row!.commits), walBytes: Number(row!.wal) }
    },
    async close() {
      if (STATEMENTS > 0) await printTopStatements(sql)
      await sql.end()
      await Promise.all([api, ...started].map((node) => node.stop()))
    },
  }
}

/** Each figure's median over the rounds (the mean of the middle two for an even count); null stays null. */
function medianOf(runs: Record<string, number | null>[]): Record<string, number | null> {
  const median: Record<string, number | null> = {}
  for (const field of Object.keys(runs[0]!)) {
    const values = runs
      .map((run) => run[field])
      .filter((value): value is number => value !== null)
      .sort((a, b) => a - b)
    const middle = values.length / 2
    median[field] = values.length === 0 ? null : values.length % 2 === 1 ? values[Math.floor(middle)]! : round((values[middle - 1]! + values[middle]!) / 2, 3)
  }
  return median
}

/** The statements with the most server time since the scenario began, one JSON line each, on stderr. */
async function printTopStatements(sql: postgres.Sql): Promise<void> {
  const rows = await sql`SELECT calls::int8 AS calls, round(total_exec_time)::int8 AS ms, rows::int8 AS rows,
      left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 160) AS query
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY total_exec_time DESC LIMIT ${STATEMENTS}`
  for (const row of rows)
    process.stderr.write(JSON.stringify({ ms: Number(row.ms), calls: Number(row.calls), rows: Number(row.rows), query: row.query }) + '\n')
}

const server = await startPostgres({
  durable: true,
  settings: STATEMENTS > 0 ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } : {},
})
try {
  const scenarios: [string, () => Promise<Setup>][] = [
    ...(POSTGRES_ONLY ? [] : [['sqliteOneProcess', sqliteSetup] as [string, () => Promise<Setup>]]),
    ['postgresOneWorker', async () => postgresSetup(await server.newDatabase(), { workers: 1, clubs: 1 })],
    ['postgresTwoWorkers', async () => postgresSetup(await server.newDatabase(), { workers: 2, clubs: 1 })],
    ['postgresTwoClubs', async () => postgresSetup(await server.newDatabase(), { workers: 1, clubs: 2 })],
  ]
  const measured = new Map<string, Record<string, number | null>[]>(scenarios.map(([name]) => [name, []]))
  for (let r = 0; r < Math.max(1, ROUNDS); r++) {
    for (const [name, open] of scenarios) {
      const setup = await open()
      try {
        measured.get(name)!.push(await measure(setup))
      } finally {
        await setup.close()
      }
    }
  }
  const result: Record<string, unknown> = { recipients: RECIPIENTS, batch: BATCH, rounds: Math.max(1, ROUNDS) }
  for (const [name, runs] of measured) result[name] = { ...medianOf(runs), rounds: runs.map((run) => run.credentialsPerSecond) }
  const rate = (name: string) => (result[name] as { credentialsPerSecond: number }).credentialsPerSecond
  const sqliteRounds = measured.get('sqliteOneProcess')
  if (sqliteRounds) {
    result.postgresOverSqlite = round(rate('postgresOneWorker') / rate('sqliteOneProcess'), 2)
    result.postgresOverSqliteByRound = measured
      .get('postgresOneWorker')!
      .map((run, r) => round(run.credentialsPerSecond! / sqliteRounds[r]!.credentialsPerSecond!, 2))
  }
  result.unit = 'credentials per second; CPU in microseconds per credential; medians of the rounds'
  process.stdout.write(JSON.stringify(result) + '\n')
} finally {
  await server.stop()
}
