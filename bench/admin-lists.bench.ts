/**
 * The staff console's issuance list at 1,000,000 issuances of one club (docs/admin-console.md
 * § Issuances): the server time of `GET /admin/issuances` (the whole page: session, templates, the
 * search, the credentials of the page, the HTML), median and p95 over `--reads` requests, for the first
 * page, a deep page, each status filter, a search by e-mail, by external id and by name, and filters
 * combined with a template; on SQLite and on PostgreSQL (the test harness's server). Prints one JSON line.
 *
 *   npm run -s bench:admin-lists -- [--issuances 1000000] [--reads 40]
 *
 * The rows are inserted in SQL, not through issuing (signing a million would take an hour): five
 * templates in turn; every 50th issuance revoked; every 5th with an expiry, half of those passed; all
 * signed but the newest 1,000, which wait in the queue. Names are a family name of ten (김, 이, 박...,
 * so that a one-syllable search matches a tenth of the club) and a number. JWTs are short placeholders.
 * Requests go through `issuer.fetch` in process: what is timed is the server's work, not a network.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import postgres from 'postgres'
import { createIssuer, type Issuer } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createPostgresStorage } from '../adapters/postgres/index.ts'
import { createScryptPasswordHasher } from '../adapters/node/password-hasher.ts'
import { startPostgres } from '../test/support/postgres.ts'
import type { StoragePort } from '../core/ports/storage.ts'
import { benchSettings } from './settings.ts'
import { median, percentile } from './measure.ts'

const { issuances: N, reads: READS } = benchSettings({ issuances: 1_000_000, reads: 40 })
const CLUB = 'bench'
const ORIGIN = 'http://localhost:8787'
const PASSWORD = 'correct horse battery staple'
const NOW = Date.UTC(2030, 0, 1)
const WAITING = 1000
const FAMILY = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임']

/** The seeded rows' columns, by sequence. */
const row = (seq: number, templates: number[]) => ({
  id: 1 + Number((BigInt(seq) * 0x9e3779b97f4a7c15n) % 9_007_199_254_740_881n),
  achievementId: templates[Math.floor(seq / 7) % templates.length]!,
  name: `${FAMILY[seq % 10]}회원 ${seq}`,
  email: `r${seq}@bench.example`,
  externalUserId: `u${seq}`,
  createdAt: NOW - (N - seq) * 1000,
  expiresAt: seq % 5 === 0 ? (seq % 10 === 0 ? NOW - 86_400_000 : NOW + 86_400_000 * 365) : null,
  revokedAt: seq % 50 === 0 ? NOW - 1000 : null,
  signed: seq <= N - WAITING,
})

function openIssuer(storage: StoragePort): Issuer {
  return createIssuer({
    storage,
    masterKey: new Uint8Array(32).fill(1),
    urls: { base: ORIGIN, auth: `${ORIGIN}/oauth`, public: ORIGIN, shareHost: 'localhost:8787', legacyBase: ORIGIN },
    clock: { now: () => NOW },
    passwordHasher: createScryptPasswordHasher({ parameters: { ln: 10, r: 8, p: 1 } }),
  })
}

/** The club, five templates, an admin with a session; returns the templates and the session cookie. */
async function prepare(issuer: Issuer): Promise<{ templates: number[]; snapshot: () => Promise<void>; cookie: string }> {
  await issuer.clubs.create({ domain: CLUB, name: 'Bench Club' })
  const templates: number[] = []
  for (let i = 0; i < 5; i++) templates.push((await issuer.achievements.create(CLUB, { name: `과정 ${i}`, description: 'Seeded by a bench.' })).id)
  const { setupUrl } = await issuer.admins.create({ club: CLUB, email: 'staff@bench.example' })
  const token = new URL(setupUrl).searchParams.get('token')!
  const post = (path: string, form: Record<string, string>) =>
    issuer.fetch(
      new Request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      }),
    )
  await post('/admin/setup', { token, password: PASSWORD, confirmation: PASSWORD })
  const login = await post('/admin/login', { email: 'staff@bench.example', password: PASSWORD })
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
  // One issuance through the issuer, for a snapshot every seeded row can point at.
  const snapshot = async () => {
    await issuer.issuances.issue(CLUB, { achievementFormId: templates[0]!, mode: 'none', recipients: [{ name: 'Seed', email: 's@bench.example' }] })
  }
  return { templates, snapshot, cookie }
}

async function seedSqlite(file: string, templates: number[]): Promise<void> {
  const db = new Database(file)
  try {
    db.pragma('synchronous = OFF')
    const snapshotId = (db.prepare('SELECT snapshot_id FROM issuances LIMIT 1').get() as { snapshot_id: number }).snapshot_id
    db.exec('DELETE FROM signing_jobs; DELETE FROM events; DELETE FROM outbox; DELETE FROM issuances')
    const issuance = db.prepare(
      `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode,
         expires_at, valid_until, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '[]', 'none', ?, ?, ?, ?)`,
    )
    const credential = db.prepare(
      `INSERT INTO credentials (issuance_seq, issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index) VALUES (?, ?, ?, ?, 'jwt', ?, ?, 1, ?)`,
    )
    const job = db.prepare('INSERT INTO signing_jobs (issuance_seq, issuance_id, club) VALUES (?, ?, ?)')
    db.transaction(() => {
      for (let seq = 1; seq <= N; seq++) {
        const r = row(seq, templates)
        const validUntil = r.expiresAt === null ? null : Math.ceil(r.expiresAt / 1000) * 1000
        issuance.run(r.id, seq, CLUB, r.achievementId, snapshotId, r.externalUserId, r.name, r.email, r.expiresAt, validUntil, r.createdAt, r.revokedAt)
        if (r.signed) credential.run(seq, r.id, `c${seq}`, CLUB, r.createdAt, validUntil, seq)
        else job.run(seq, r.id, CLUB)
      }
      db.prepare("UPDATE sequences SET value = ? WHERE name = 'issuances'").run(N)
    })()
  } finally {
    db.close()
  }
}

async function seedPostgres(url: string, templates: number[]): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: 'clubcred' } })
  try {
    const [{ snapshot_id: snapshotId }] = (await sql`SELECT snapshot_id FROM issuances LIMIT 1`) as unknown as [{ snapshot_id: string }]
    await sql`DELETE FROM signing_jobs`
    await sql`DELETE FROM outbox`
    await sql`DELETE FROM events`
    await sql`DELETE FROM issuances`
    const family = `ARRAY[${FAMILY.map((name) => `'${name}'`).join(',')}]`
    const t = `ARRAY[${templates.join(',')}]::int8[]`
    await sql.unsafe(`INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode,
        expires_at, valid_until, created_at, revoked_at)
      SELECT 1 + ((g::numeric * 11400714819323198485) % 9007199254740881)::int8, g, '${CLUB}', (${t})[1 + (g / 7) % ${templates.length}], ${snapshotId},
        'u' || g, (${family})[1 + g % 10] || '회원 ' || g, 'r' || g || '@bench.example', '[]', 'none',
        e.at, e.at, ${NOW} - (${N} - g) * 1000, CASE WHEN g % 50 = 0 THEN ${NOW - 1000} END
      FROM generate_series(1, ${N}::int8) g
        CROSS JOIN LATERAL (SELECT CASE WHEN g % 10 = 0 THEN ${NOW - 86_400_000}::int8 WHEN g % 5 = 0 THEN ${NOW + 86_400_000 * 365}::int8 END AS at) e`)
    await sql.unsafe(`INSERT INTO credentials (issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
      SELECT id, 'c' || seq, club, 'jwt', created_at, valid_until, 1, seq FROM issuances WHERE seq <= ${N - WAITING}`)
    await sql.unsafe(`INSERT INTO signing_jobs (issuance_id, issuance_seq, club) SELECT id, seq, club FROM issuances WHERE seq > ${N - WAITING}`)
    await sql.unsafe(`SELECT setval('issuance_seq', ${N})`)
    // As autovacuum does after a load this size: the planner then knows one club holds the table.
    await sql.unsafe('VACUUM ANALYZE')
  } finally {
    await sql.end()
  }
}

/** The cursor a page before `position` carries (core/lists/cursor.ts). */
const cursorBefore = (position: number) => Buffer.from(`issuances:${position}`).toString('base64url')

async function timeScenarios(issuer: Issuer, cookie: string, templates: number[]): Promise<Record<string, { medianMs: number; p95Ms: number; rows: number }>> {
  const t = templates[1]!
  const scenarios: Record<string, string> = {
    first: '',
    deep: `cursor=${cursorBefore(1000)}`,
    pending: 'status=pending',
    valid: 'status=valid',
    revoked: 'status=revoked',
    expired: 'status=expired',
    email: `by=email&q=${encodeURIComponent(`R${N / 2}@Bench.example`)}`,
    externalUserId: `by=externalUserId&q=u${N / 2 + 1}`,
    nameOneSyllable: `by=name&q=${encodeURIComponent('박')}`,
    nameFull: `by=name&q=${encodeURIComponent(`김회원 ${N / 2}`)}`,
    templateValid: `achievementId=${t}&status=valid`,
    templateExpired: `achievementId=${t}&status=expired`,
    templateRevoked: `achievementId=${t}&status=revoked`,
    templateName: `achievementId=${t}&by=name&q=${encodeURIComponent('박')}`,
    // A row of template `t` (templates take turns every 7 sequences), half-way down the table.
    templateEmail: `achievementId=${t}&by=email&q=r${7 + 35 * Math.floor(N / 70)}@bench.example`,
  }
  const get = (query: string) => issuer.fetch(new Request(`${ORIGIN}/admin/issuances${query ? `?${query}` : ''}`, { headers: { cookie } }))
  const result: Record<string, { medianMs: number; p95Ms: number; rows: number }> = {}
  for (const [name, query] of Object.entries(scenarios)) {
    const times: number[] = []
    let rows = 0
    for (let i = 0; i < READS + 5; i++) {
      const started = performance.now()
      const response = await get(query)
      const page = await response.text()
      const ms = performance.now() - started
      if (response.status !== 200) throw new Error(`${name}: ${response.status}`)
      rows = (page.match(/<a href="\/admin\/issuances\/\d+">/g) ?? []).length
      if (i >= 5) times.push(ms)
    }
    result[name] = { medianMs: Number(median(times).toFixed(2)), p95Ms: Number(percentile(times, 95).toFixed(2)), rows }
  }
  return result
}

const result: Record<string, unknown> = { bench: 'admin-lists', issuances: N, reads: READS }
const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-admin-lists-'))
try {
  const file = join(dir, 'admin-lists.db')
  const sqliteIssuer = openIssuer(createSqliteStorage({ driver: betterSqlite3Driver(file) }))
  const sqlite = await prepare(sqliteIssuer)
  await sqlite.snapshot()
  await sqliteIssuer.close()
  let started = performance.now()
  await seedSqlite(file, sqlite.templates)
  const sqliteSeedSeconds = (performance.now() - started) / 1000
  const reopened = openIssuer(createSqliteStorage({ driver: betterSqlite3Driver(file) }))
  result.sqlite = { seedSeconds: Number(sqliteSeedSeconds.toFixed(1)), ...(await timeScenarios(reopened, sqlite.cookie, sqlite.templates)) }
  await reopened.close()
  rmSync(file, { force: true })

  const server = await startPostgres({ durable: false })
  try {
    const url = await server.newDatabase()
    const storage = await createPostgresStorage({ url })
    const pgIssuer = openIssuer(storage)
    const pg = await prepare(pgIssuer)
    await pg.snapshot()
    started = performance.now()
    await seedPostgres(url, pg.templates)
    const pgSeedSeconds = (performance.now() - started) / 1000
    result.postgres = { seedSeconds: Number(pgSeedSeconds.toFixed(1)), ...(await timeScenarios(pgIssuer, pg.cookie, pg.templates)) }
    await pgIssuer.close()
  } finally {
    await server.stop()
  }
  result.unit = 'ms of server time per page (median, p95)'
  result.node = process.version
  console.log(JSON.stringify(result))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
