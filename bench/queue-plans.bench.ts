/**
 * Where PostgreSQL spends a signing round and a batch accept on a queue that has been used: the plans
 * (`EXPLAIN (ANALYZE, BUFFERS)`) of the worker's claim and of the statements that accept a call of 1,000
 * recipients, on a database seeded in SQL with `--issuances` issuances of which `--waiting` still wait to
 * be signed. The signed ones' jobs were inserted and deleted, as the workers do, so the queue's table and
 * index carry their dead rows: each plan is taken before and after `VACUUM ANALYZE`. Statements run in
 * transactions that are rolled back, so each plan sees the same data. Prints the plans, then one JSON line.
 *
 *   npx tsx bench/queue-plans.bench.ts [--issuances 1000000] [--waiting 100000] [--claim 1000]
 *
 * Credential `jwt`s are short placeholders: neither plan reads them.
 */
import { createPostgresStorage } from '../adapters/postgres/index.ts'
import postgres from 'postgres'
import { startPostgres } from '../test/support/postgres.ts'
import { benchSettings } from './settings.ts'

const { issuances: N, waiting: W, claim: CLAIM } = benchSettings({ issuances: 1_000_000, waiting: 100_000, claim: 1000 })
if (W > N) throw new TypeError('bench: --waiting must not exceed --issuances')

const server = await startPostgres({ durable: true })
try {
  const url = await server.newDatabase()
  await (await createPostgresStorage({ url })).close()
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: 'clubcred' } })
  const seedStarted = performance.now()
  await sql.begin(async (tx) => {
    // The seed has no clubs, templates or snapshots to point at: foreign keys are not checked while seeding.
    await tx`SET LOCAL session_replication_role = replica`
    await tx`INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at)
      SELECT g, g, 'demo', 1, 1, 'u' || g, 'Recipient ' || g, 'r' || g || '@bench.example', '[]', 'none', 1700000000000 + g
      FROM generate_series(1, ${N}::int8) g`
    await tx`INSERT INTO credentials (issuance_id, id, club, jwt, issued_at, status_list_id, status_list_index)
      SELECT g, 'urn:uuid:' || g, 'demo', 'jwt', 1700000000000 + g, 1 + g / 131072, g % 131072
      FROM generate_series(1, ${N - W}::int8) g`
    await tx`INSERT INTO signing_jobs (issuance_id, issuance_seq, club) SELECT g, g, 'demo' FROM generate_series(1, ${N}::int8) g`
    await tx`SELECT setval('issuance_seq', ${N})`
  })
  // The signed ones' jobs are deleted after the insert has committed, as the workers do: dead rows stay.
  await sql`DELETE FROM signing_jobs WHERE issuance_id <= ${N - W}`
  const seedSeconds = (performance.now() - seedStarted) / 1000

  const now = 1800000000000
  const statements: Record<string, string> = {
    claim: `UPDATE signing_jobs SET lease_until = ${now + 60_000}, attempts = attempts + 1
      WHERE issuance_id = ANY(ARRAY(SELECT issuance_id FROM signing_jobs WHERE lease_until IS NULL OR lease_until < ${now}
        ORDER BY issuance_seq LIMIT ${CLAIM} FOR UPDATE SKIP LOCKED)) RETURNING *`,
    acceptIssuances: `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at)
      SELECT g, g, 'demo', 1, 1, 'u' || g, 'Recipient ' || g, 'r' || g || '@bench.example', '[]', 'none', ${now}
      FROM generate_series(${N + 1}::int8, ${N + CLAIM}::int8) g ON CONFLICT (id) DO NOTHING RETURNING id`,
    acceptJobs: `INSERT INTO signing_jobs (issuance_id, club, issuance_seq)
      SELECT j.issuance_id, j.club, (SELECT seq FROM issuances WHERE id = j.issuance_id)
      FROM unnest(ARRAY(SELECT generate_series(1::int8, ${CLAIM}::int8)), ARRAY(SELECT 'demo'::text FROM generate_series(1, ${CLAIM}))) AS j(issuance_id, club)`,
    completeJobs: `DELETE FROM signing_jobs WHERE issuance_id = ANY(ARRAY(SELECT generate_series(${N - W + 1}::int8, ${N - W + CLAIM}::int8)))`,
  }
  const summary: Record<string, unknown> = { issuances: N, waiting: W, claim: CLAIM, seedSeconds: Number(seedSeconds.toFixed(1)) }
  const explainAll = async (state: string) => {
    for (const [name, text] of Object.entries(statements)) {
      let plan = ''
      await sql
        .begin(async (tx) => {
          await tx`SET LOCAL session_replication_role = replica`
          const rows = await tx.unsafe(`EXPLAIN (ANALYZE, BUFFERS) ${text}`)
          plan = rows.map((row) => row['QUERY PLAN'] as string).join('\n')
          throw new Error('rollback')
        })
        .catch((error: unknown) => {
          if (!(error instanceof Error) || error.message !== 'rollback') throw error
        })
      process.stdout.write(`-- ${name}, ${state}\n${plan}\n\n`)
      summary[`${name}Ms_${state}`] = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN)
    }
  }
  await explainAll('deadRows')
  await sql`VACUUM ANALYZE signing_jobs`
  await sql`VACUUM ANALYZE issuances`
  await explainAll('vacuumed')
  await sql.end()
  process.stdout.write(JSON.stringify(summary) + '\n')
} finally {
  await server.stop()
}
