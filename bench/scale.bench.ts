/**
 * Credentials per second end to end, through real server processes (`server/node.ts`): SQLite in one
 * process (role `all`), and PostgreSQL with one `api` node and 1, then 2, `worker` processes, in the same
 * run. The clock runs from the first issue request until the last credential is stored, read from the
 * database itself. Prints one JSON line.
 *
 *   npx tsx bench/scale.bench.ts [--recipients 10000] [--batch 1000]
 *
 * The PostgreSQL server is the test harness's (test/support/postgres.ts): Debian's PostgreSQL, started in
 * a temporary directory with fsync on, on loopback.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import postgres from 'postgres'
import { startPostgres } from '../test/support/postgres.ts'
import { spawnNode, type NodeProcess } from '../test/support/node-process.ts'
import { demoClientFrom } from '../test/support/server.ts'
import { benchSettings } from './settings.ts'

const { recipients: RECIPIENTS, batch: BATCH } = benchSettings({ recipients: 10_000, batch: 1000 })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Setup {
  api: NodeProcess
  workers: NodeProcess[]
  credentials(): Promise<number>
  close(): Promise<void>
}

async function tokenOf(api: NodeProcess): Promise<string> {
  const client = demoClientFrom(api.stderr)
  if (!client) throw new Error('no demo client printed')
  const response = await api.http('/oauth/token', {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  return response.json.access_token as string
}

/** Issues RECIPIENTS in batches (two requests in flight) and waits for every credential; returns credentials per second. */
async function measure(setup: Setup): Promise<number> {
  const token = await tokenOf(setup.api)
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const template = await setup.api.http('/v2/clubs/demo/achievements', {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Scale', description: 'Issued by the scale bench.', tag: ['bench'] }),
  })
  const templateId = template.json.data.id as number
  const started = performance.now()
  const batches = Array.from({ length: Math.ceil(RECIPIENTS / BATCH) }, (_, b) => b)
  const post = async (b: number) => {
    const recipients = Array.from({ length: Math.min(BATCH, RECIPIENTS - b * BATCH) }, (_, i) => ({
      externalUserId: `b${b}-${i}`,
      name: `Recipient ${i}`,
      email: `r${b}.${i}@bench.example`,
    }))
    const response = await setup.api.http('/v2/clubs/demo/issuances', {
      method: 'POST',
      headers,
      body: JSON.stringify({ achievementFormId: templateId, mode: 'none', recipients }),
    })
    if (response.status !== 200) throw new Error(`issue answered ${response.status}: ${response.text}`)
  }
  const queue = [...batches]
  await Promise.all(
    [0, 1].map(async () => {
      for (let b = queue.shift(); b !== undefined; b = queue.shift()) await post(b)
    }),
  )
  while ((await setup.credentials()) < RECIPIENTS) await sleep(20)
  return RECIPIENTS / ((performance.now() - started) / 1000)
}

async function sqliteSetup(): Promise<Setup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clubcred-bench-scale-'))
  const api = await spawnNode({ CLUBCRED_DATA_DIR: dataDir })
  const db = new Database(join(dataDir, 'clubcred.db'), { readonly: true })
  const count = db.prepare('SELECT count(*) AS n FROM credentials')
  return {
    api,
    workers: [],
    credentials: async () => Number((count.get() as { n: number }).n),
    async close() {
      db.close()
      await api.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function postgresSetup(url: string, workers: number): Promise<Setup> {
  const env = { CLUBCRED_DATABASE_URL: url, CLUBCRED_MASTER_KEY: randomBytes(32).toString('hex') }
  const api = await spawnNode({ ...env, CLUBCRED_ROLE: 'api' })
  const started = await Promise.all(Array.from({ length: workers }, () => spawnNode({ ...env, CLUBCRED_ROLE: 'worker' })))
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: 'clubcred' } })
  return {
    api,
    workers: started,
    credentials: async () => Number((await sql`SELECT count(*) AS n FROM credentials`)[0]!.n),
    async close() {
      await sql.end()
      await Promise.all([api, ...started].map((node) => node.stop()))
    },
  }
}

const server = await startPostgres({ durable: true })
try {
  const result: Record<string, number | string> = { recipients: RECIPIENTS, batch: BATCH }
  const run = async (name: string, open: () => Promise<Setup>) => {
    const setup = await open()
    try {
      result[name] = Math.round(await measure(setup))
    } finally {
      await setup.close()
    }
  }
  await run('sqliteOneProcess', sqliteSetup)
  await run('postgresOneWorker', async () => postgresSetup(await server.newDatabase(), 1))
  await run('postgresTwoWorkers', async () => postgresSetup(await server.newDatabase(), 2))
  result.unit = 'credentials per second'
  process.stdout.write(JSON.stringify(result) + '\n')
} finally {
  await server.stop()
}
