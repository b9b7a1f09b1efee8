/**
 * Token hot paths, in process on SQLite: access tokens issued per second through the token endpoint
 * (HTTP Basic client authentication included) and bearer checks per second on the club root, each
 * measured over a fixed time after a warm-up, through `createIssuer(...).fetch` as a server would
 * call it. Prints one JSON line on stdout; progress goes to stderr.
 *
 *   npx tsx bench/token.bench.ts [--seconds 3] [--warmup 1] [--concurrency 8]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIssuer, defaultUrls } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { benchSettings } from './settings.ts'

const { seconds: SECONDS, warmup: WARM_UP_SECONDS, concurrency: CONCURRENCY } = benchSettings({ seconds: 3, warmup: 1, concurrency: 8 })
const ORIGIN = 'http://localhost:8787'

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-'))
const storage = createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'clubcred.db')) })
const issuer = createIssuer({
  storage,
  masterKey: crypto.getRandomValues(new Uint8Array(32)),
  urls: defaultUrls(8787),
  http: { onError: (error) => console.error(error) },
})

await issuer.clubs.create({ domain: 'bench', name: 'Bench Club' })
const client = await issuer.clients.create({ club: 'bench' })
const authorization = 'Basic ' + Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')

const tokenRequest = () =>
  new Request(`${ORIGIN}/oauth/token`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  })

async function issueToken(): Promise<string> {
  const response = await issuer.fetch(tokenRequest())
  const body = await response.text()
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${body}`)
  return (JSON.parse(body) as { access_token: string }).access_token
}

const token = await issueToken()
const checkRequest = () => new Request(`${ORIGIN}/v2/clubs/bench/`, { headers: { authorization: `Bearer ${token}` } })

async function checkBearer(): Promise<void> {
  const response = await issuer.fetch(checkRequest())
  const body = await response.text()
  if (response.status !== 200) throw new Error(`club root answered ${response.status}: ${body}`)
}

/** Runs `operation` from CONCURRENCY loops for `seconds`; returns completed operations per second. */
async function rate(operation: () => Promise<unknown>, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000
  let done = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await operation()
        done++
      }
    }),
  )
  return done / ((performance.now() - started) / 1000)
}

async function measure(name: string, operation: () => Promise<unknown>): Promise<number> {
  process.stderr.write(`${name}: warm-up ${WARM_UP_SECONDS} s, then ${SECONDS} s...\n`)
  await rate(operation, WARM_UP_SECONDS)
  const perSecond = await rate(operation, SECONDS)
  process.stderr.write(`${name}: ${perSecond.toFixed(0)}/s\n`)
  return perSecond
}

const tokensPerSecond = await measure('tokens', issueToken)
const bearerChecksPerSecond = await measure('bearer checks', checkBearer)

process.stdout.write(
  JSON.stringify({
    bench: 'token',
    tokensPerSecond: Math.round(tokensPerSecond),
    bearerChecksPerSecond: Math.round(bearerChecksPerSecond),
    seconds: SECONDS,
    concurrency: CONCURRENCY,
    storage: 'sqlite/better-sqlite3',
    node: process.version,
  }) + '\n',
)

await issuer.close()
rmSync(dir, { recursive: true, force: true })
