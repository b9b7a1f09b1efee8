/**
 * `bench:lists` on PostgreSQL for the issuance list's filters: the first page of 100 under
 * `status` and `claimed` against the unfiltered first page, target ≤ 2 ×, at 1,000,000 issuances of one
 * club, each signed, a tenth revoked, a fifth claimed by a wallet. The server is the test harness's
 * (test/support/postgres.ts); rows are inserted in SQL (generate_series), then VACUUM ANALYZE as
 * autovacuum would after such a load. Reads go through `issuer.issuances.list`. Prints one JSON line.
 *
 *   npx tsx bench/lists-postgres.bench.ts [--issuances 1000000] [--reads 100]
 */
import postgres from 'postgres'
import { createIssuer, defaultUrls } from '../index.ts'
import { createPostgresStorage } from '../adapters/postgres/index.ts'
import { startPostgres } from '../test/support/postgres.ts'
import { benchSettings } from './settings.ts'
import { median } from './measure.ts'

const { issuances: N, reads: READS } = benchSettings({ issuances: 1_000_000, reads: 100 })
const CLUB = 'bench'
const PAGE = '100'
const FILTERS: Record<string, Record<string, string>> = {
  none: {},
  'status=valid': { status: 'valid' },
  'status=revoked': { status: 'revoked' },
  'claimed=true': { claimed: 'true' },
  'claimed=false': { claimed: 'false' },
  'status=valid&claimed=true': { status: 'valid', claimed: 'true' },
}

const server = await startPostgres({ durable: false })
try {
  const url = await server.newDatabase()
  const issuer = createIssuer({ storage: await createPostgresStorage({ url }), masterKey: new Uint8Array(32).fill(1), urls: defaultUrls(8787) })
  await issuer.clubs.create({ domain: CLUB, name: 'Bench Club' })
  const template = await issuer.achievements.create(CLUB, { name: 'Bench', description: 'Seeded by a bench.' })
  await issuer.issuances.issue(CLUB, { achievementFormId: template.id, mode: 'none', recipients: [{ name: 'Seed', email: 's@bench.example' }] })
  const started = performance.now()
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: 'clubcred' } })
  try {
    const [{ snapshot_id: snapshotId }] = (await sql`SELECT snapshot_id FROM issuances LIMIT 1`) as unknown as [{ snapshot_id: string }]
    await sql`DELETE FROM signing_jobs`
    await sql`DELETE FROM events`
    await sql`DELETE FROM issuances`
    await sql.unsafe(`INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode,
        created_at, revoked_at)
      SELECT 1 + ((g::numeric * 11400714819323198485) % 9007199254740881)::int8, g, '${CLUB}', ${template.id}, ${snapshotId},
        'u' || g, 'Recipient ' || g, 'r' || g || '@bench.example', '[]', 'none', 1900000000000 + g, CASE WHEN g % 10 = 3 THEN 1900000000000 + g + 1 END
      FROM generate_series(1, ${N}::int8) g`)
    await sql.unsafe(`INSERT INTO credentials (issuance_id, id, club, jwt, issued_at, status_list_id, status_list_index)
      SELECT id, 'c' || seq, club, 'jwt', created_at, 1, seq FROM issuances`)
    await sql.unsafe(`INSERT INTO issuance_claims (issuance_id, issuance_seq, club, via, format, at, first)
      SELECT id, seq, club, 'oid4vci', 'jwt_vc_json', created_at + 2, true FROM issuances WHERE seq % 5 = 1`)
    await sql.unsafe(`SELECT setval('issuance_seq', ${N})`)
    await sql.unsafe('VACUUM ANALYZE')
  } finally {
    await sql.end()
  }
  const seedSeconds = (performance.now() - started) / 1000
  const times = new Map(Object.keys(FILTERS).map((name) => [name, [] as number[]]))
  for (let i = 0; i < READS + 20; i++) {
    for (const [name, filter] of Object.entries(FILTERS)) {
      const began = performance.now()
      const page = await issuer.issuances.list(CLUB, { limit: PAGE, ...filter })
      if (i >= 20) times.get(name)!.push(performance.now() - began)
      if (page.data.length !== Number(PAGE)) throw new Error(`${name}: a page of ${page.data.length} rows`)
    }
  }
  await issuer.close()
  const unfiltered = median(times.get('none')!)
  const filtered = Object.fromEntries(
    [...times].map(([name, ms]) => [name, { ms: Number(median(ms).toFixed(3)), toUnfiltered: Number((median(ms) / unfiltered).toFixed(2)) }]),
  )
  console.log(
    JSON.stringify({
      bench: 'lists-postgres',
      issuances: N,
      reads: READS,
      seedSeconds: Number(seedSeconds.toFixed(1)),
      filtered,
      unit: 'ms per page (median)',
      node: process.version,
    }),
  )
} finally {
  await server.stop()
}
