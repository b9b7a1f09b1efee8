/**
 * The plans PostgreSQL chooses for the statements that run once per batch or signing round, read with
 * auto_explain from the server's own log as the adapter's connections run them: on a table that has no
 * statistics yet (a new deployment, or a table grown faster than autovacuum analyses it), where the
 * planner has only its defaults to go by. The same statements at 1,000,000 issuances are measured by
 * bench/queue-plans.bench.ts.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import postgres from 'postgres'
import { createPostgresStorage } from '../../adapters/postgres/index.ts'
import { anIssuance, seedTemplate } from '../conformance/storage/issuances.cases.ts'
import { postgresPerFile } from '../support/postgres-storage.ts'

const server = postgresPerFile()
const ISSUANCES = 20_000

/** Each plan auto_explain logged after `from` (a byte offset of the log): its statement and plan text. */
function plansSince(from: number): string[] {
  return readFileSync(server.server().logFile, 'utf8')
    .slice(from)
    .split(/LOG: {2}duration: /)
    .slice(1)
}

describe('postgres storage › query plans before statistics', () => {
  it('the already-issued check and the claim are index lookups: no sequential scan, no walk of the template', async () => {
    const { url, close } = await server.open()
    await close()
    const admin = postgres(url, { max: 1, onnotice: () => {} })
    const database = new URL(url).pathname.slice(1)
    // Every statement of a new connection to this database logs its plan.
    await admin.unsafe(`ALTER DATABASE ${database} SET session_preload_libraries = 'auto_explain'`)
    await admin.unsafe(`ALTER DATABASE ${database} SET auto_explain.log_min_duration = 0`)
    await admin.end()
    const storage = await createPostgresStorage({ url, poolSize: 1 })
    try {
      const seed = await seedTemplate(storage)
      const issuances = await storage.transaction((tx) =>
        tx.issuances.insertMany(
          Array.from({ length: ISSUANCES }, (_, i) => anIssuance(seed, { recipient: { externalUserId: `u${i}`, name: 'R', email: `r${i}@example.org` } })),
        ),
      )
      await storage.transaction((tx) => tx.signingJobs.enqueueMany(issuances.map((issuance) => ({ issuanceId: issuance!.id, club: 'chess' }))))
      const from = readFileSync(server.server().logFile, 'utf8').length

      // More than five times each: a prepared statement's first five plans are custom, later ones may be generic.
      for (let round = 0; round < 7; round++) {
        const held = await storage.issuances.findHeld('chess', seed.achievementId, [
          ...Array.from({ length: 200 }, (_, i) => ({ externalUserId: `u${i * 7}`, email: 'other@example.org' })),
          ...Array.from({ length: 200 }, (_, i) => ({ externalUserId: null, email: `R${i * 11}@Example.org` })),
        ])
        assert.equal(held.filter((found) => found.length === 1).length, 400, 'every recipient found once')
        const claimed = await storage.transaction((tx) => tx.signingJobs.claim(1_900_000_000_000 + round, 60_000, 100), { concurrent: true })
        assert.equal(claimed.length, 100)
      }

      const plans = plansSince(from)
      const held = plans.filter((plan) => plan.includes('CROSS JOIN LATERAL'))
      const claims = plans.filter((plan) => /UPDATE signing_jobs SET lease_until/.test(plan))
      assert.equal(held.length, 7, 'a plan for each already-issued check')
      assert.equal(claims.length, 7, 'a plan for each claim')
      for (const plan of held) {
        assert.match(plan, /Index Scan using issuances_by_external_user on issuances/, plan)
        assert.match(plan, /Index Scan using issuances_by_email on issuances/, plan)
        assert.doesNotMatch(plan, /Seq Scan|issuances_by_template|issuances_by_club|Hash Join/, plan)
      }
      for (const plan of claims) {
        assert.match(plan, /signing_jobs_by_seq/, plan)
        assert.match(plan, /Index Scan (using|on) signing_jobs_pkey/, plan)
        assert.doesNotMatch(plan, /Seq Scan on signing_jobs/, plan)
      }
    } finally {
      await storage.close()
    }
  })
})
