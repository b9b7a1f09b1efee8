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
import type { IssuanceSearch, RecipientMatch } from '../../core/ports/storage.ts'
import type { IssuanceStatus } from '../../core/issuances/present.ts'

const server = postgresPerFile()
const ISSUANCES = 20_000

/** Each plan auto_explain logged after `from` (a byte offset of the log): its statement and plan text. */
function plansSince(from: number): string[] {
  return readFileSync(server.server().logFile, 'utf8')
    .slice(from)
    .split(/LOG: {2}duration: /)
    .slice(1)
}

/** A fresh database on which every statement of a new connection logs its plan (auto_explain), and storage on it. */
async function explainedStorage() {
  const { url, close } = await server.open()
  await close()
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  const database = new URL(url).pathname.slice(1)
  await admin.unsafe(`ALTER DATABASE ${database} SET session_preload_libraries = 'auto_explain'`)
  await admin.unsafe(`ALTER DATABASE ${database} SET auto_explain.log_min_duration = 0`)
  await admin.end()
  return { url, storage: await createPostgresStorage({ url, poolSize: 1 }) }
}

describe('postgres storage › query plans before statistics', () => {
  it('the already-issued check and the claim are index lookups: no sequential scan, no walk of the template', async () => {
    const { storage } = await explainedStorage()
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

describe('postgres storage › query plans of the issuance search, once analysed', () => {
  it('each filter walks its index in the page order: no sequential scan, no sort of a status or template page', async () => {
    const { url, storage } = await explainedStorage()
    try {
      const seed = await seedTemplate(storage)
      await storage.transaction((tx) =>
        tx.issuances.insertMany(
          Array.from({ length: ISSUANCES }, (_, i) =>
            anIssuance(seed, {
              recipient: { externalUserId: `u${i}`, name: `Recipient ${i}`, email: `r${i}@example.org` },
              expiresAt: i % 10 === 0 ? 1_900_000_000_000 : null,
              revokedAt: i % 100 === 0 ? 1_900_000_000_000 : null,
            }),
          ),
        ),
      )
      // Before statistics the planner guesses a club holds 0.5 % of the rows and sorts them; autovacuum
      // analyses a table after 10 % of it changed, so a club of a million is planned with its statistics.
      const analyse = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: 'clubcred' } })
      // Signed but the newest 2,000, which wait in the queue, as the workers leave a busy club.
      await analyse.unsafe(`INSERT INTO credentials (issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
        SELECT id, 'c' || seq, club, 'jwt', 1, valid_until, 1, seq FROM issuances ORDER BY seq LIMIT ${ISSUANCES - 2000}`)
      await analyse.unsafe('INSERT INTO signing_jobs (issuance_id, issuance_seq, club) SELECT id, seq, club FROM issuances ORDER BY seq DESC LIMIT 2000')
      await analyse.unsafe('ANALYZE')
      await analyse.end()
      const recipients: (RecipientMatch | null)[] = [
        null,
        { by: 'email', value: 'R7@example.org' },
        { by: 'externalUserId', value: 'u7' },
        { by: 'name', value: 'recipient 1' },
      ]
      const statuses: (IssuanceStatus | null)[] = [null, 'pending', 'valid', 'expired', 'revoked']
      const from = readFileSync(server.server().logFile, 'utf8').length
      for (const achievementId of [null, seed.achievementId])
        for (const status of statuses)
          for (const recipient of recipients) {
            const query: IssuanceSearch = { limit: 21, afterSequence: null, achievementId, status, now: 1_950_000_000_000, recipient }
            // More than five times: a prepared statement's later plans may be generic.
            for (let round = 0; round < 6; round++) await storage.issuances.search('chess', query)
          }
      const plans = plansSince(from).filter((plan) => /FROM (issuances|signing_jobs) AS/.test(plan))
      assert.equal(plans.length, 2 * 5 * 4 * 6, 'a plan for each search')
      for (const plan of plans) {
        assert.doesNotMatch(plan, /Seq Scan on (issuances|signing_jobs)/, plan)
        const oneRecipient = /lower\(i\.recipient_email\) = lower|i\.external_user_id = /.test(plan)
        const queue = /FROM signing_jobs AS j/.test(plan)
        // The pending ones come from the queue, walked in sequence order (by club, or all of it when one club fills it).
        if (queue) assert.match(plan, /Index Scan Backward using signing_jobs_by_(club|seq) on signing_jobs j/, plan)
        const byName = /ORDER BY lower\(i\.recipient_name/.test(plan)
        if (byName && !/revoked_at IS NOT NULL|valid_until <=/.test(plan)) assert.match(plan, /issuances_by_name/, plan)
        // A status or template page is read in its order. With a name too, PostgreSQL may start from the
        // smaller of the name's range and the revoked or expiring set and sort it: its choice, by the statistics.
        if (!oneRecipient && !byName) assert.doesNotMatch(plan, /Sort Key/, plan)
        if (oneRecipient) assert.match(plan, /issuances_by_(email|external_user)/, plan)
      }
    } finally {
      await storage.close()
    }
  })
})
