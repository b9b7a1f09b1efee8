/**
 * The query plans of the signing round's SQLite statements: each must touch the rows it
 * returns, not every row of a club or of the queue, so that a round costs the same at 10,000 and at
 * 1,000,000 issuances (`npm run -s bench:round`, docs/benchmarks.md).
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { CREDENTIALS_BY_ISSUANCE_IDS } from '../../adapters/sqlite/credentials.ts'
import { CLAIM_JOBS } from '../../adapters/sqlite/signing-jobs.ts'
import { ISSUANCES_BY_IDS } from '../../adapters/sqlite/issuances.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'
import { searchStatement } from '../../adapters/sqlite/issuance-search.ts'
import { createDatabase } from '../../adapters/sqlite/database.ts'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import type { IssuanceSearch, RecipientMatch } from '../../core/ports/storage.ts'
import type { IssuanceStatus } from '../../core/issuances/present.ts'
import { anIssuance, seedTemplate } from '../conformance/storage/issuances.cases.ts'

async function planOf(sql: string, params: unknown[]): Promise<string[]> {
  const dir = tempDir()
  try {
    const file = join(dir.path, 'clubcred.db')
    await openSqliteFile(file).close()
    const db = new Database(file)
    try {
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail)
    } finally {
      db.close()
    }
  } finally {
    dir.remove()
  }
}

describe('sqlite query plans of the signing round', () => {
  it("a round's issuances are read by their ids' unique index, not by walking the club's index", async () => {
    const plan = await planOf(ISSUANCES_BY_IDS, ['[1,2,3]', 'chess'])
    assert.ok(
      plan.some((step) => /SEARCH i USING INDEX issuances_by_id \(id=\?\)/.test(step)),
      plan.join(' | '),
    )
    assert.ok(!plan.some((step) => /issuances_by_club/.test(step)), plan.join(' | '))
  })

  it("a batch's issuances go to the end of the table: it is keyed by the sequence, not the random id", async () => {
    const plan = await planOf('SELECT * FROM issuances WHERE seq BETWEEN ? AND ?', [1, 1000])
    assert.ok(
      plan.some((step) => /SEARCH issuances USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/.test(step)),
      plan.join(' | '),
    )
  })

  it("a round's credentials are found by their issuances' ids through the id index and the credentials' key, never by a scan", async () => {
    const plan = await planOf(CREDENTIALS_BY_ISSUANCE_IDS, ['[1,2,3]'])
    assert.ok(
      plan.some((step) => /SEARCH credentials USING INTEGER PRIMARY KEY/.test(step)),
      plan.join(' | '),
    )
    assert.ok(
      plan.some((step) => /SEARCH issuances USING COVERING INDEX issuances_by_id/.test(step)),
      plan.join(' | '),
    )
    assert.ok(!plan.some((step) => /SCAN (credentials|issuances)/.test(step)), plan.join(' | '))
  })

  it('the claim reads the two lease ranges in order, never sorting the whole queue', async () => {
    const plan = await planOf(CLAIM_JOBS, [2, 10, 1, 10, 10])
    assert.ok(!plan.some((step) => /MULTI-INDEX OR/.test(step)), plan.join(' | '))
    assert.equal(plan.filter((step) => /SEARCH signing_jobs USING COVERING INDEX signing_jobs_by_lease/.test(step)).length, 2, plan.join(' | '))
  })
})

describe('sqlite query plans of the issuance search', () => {
  it('every combination of template, status and recipient walks the index meant for it, in the page order, never the table', async () => {
    const dir = tempDir()
    try {
      const file = join(dir.path, 'clubcred.db')
      const storage = openSqliteFile(file)
      // One issuance, so that a name page can start after it (the adapter reads its name).
      const seed = await seedTemplate(storage)
      const { sequence } = await storage.transaction((tx) => tx.issuances.insert(anIssuance(seed)))
      await storage.close()
      const db = createDatabase(betterSqlite3Driver(file))
      const recipients: (RecipientMatch | null)[] = [
        null,
        { by: 'email', value: 'ada@example.org' },
        { by: 'externalUserId', value: 'member-42' },
        { by: 'name', value: 'Ada' },
      ]
      const statuses: (IssuanceStatus | null)[] = [null, 'pending', 'valid', 'expired', 'revoked']
      let checked = 0
      for (const achievementId of [null, seed.achievementId])
        for (const status of statuses)
          for (const recipient of recipients)
            for (const afterSequence of [null, sequence]) {
              const query: IssuanceSearch = { limit: 21, afterSequence, achievementId, status, now: 1, recipient }
              const statement = searchStatement(db, 'chess', query)!
              const plan = db.all(`EXPLAIN QUERY PLAN ${statement.sql}`, ...statement.params).map((row) => String(row.detail))
              const shown = `${JSON.stringify(query)}: ${plan.join(' | ')}`
              assert.ok(!plan.some((step) => /^SCAN (i|j|issuances|signing_jobs)\b/.test(step)), shown)
              const template = achievementId !== null
              const expected =
                recipient?.by === 'name'
                  ? 'issuances_by_name \\(club=\\? AND'
                  : recipient?.by === 'email'
                    ? 'issuances_by_email \\(club=\\? AND achievement_id=\\? AND recipient_email=\\?'
                    : recipient
                      ? 'issuances_by_external_user \\(club=\\? AND achievement_id=\\? AND external_user_id=\\?'
                      : status === 'pending'
                        ? 'signing_jobs_by_club \\(club=\\?'
                        : status === 'revoked'
                          ? template
                            ? 'issuances_revoked_by_template'
                            : 'issuances_revoked '
                          : status === 'expired'
                            ? template
                              ? 'issuances_expiring_by_template'
                              : 'issuances_expiring '
                            : template
                              ? 'issuances_by_template'
                              : 'issuances_by_club'
              assert.ok(
                plan.some((step) => new RegExp(`^SEARCH (i|j) USING (COVERING )?INDEX ${expected}`).test(step)),
                shown,
              )
              // A sort only of one recipient's issuances (by e-mail or id, one lookup per template); every other page is read in its order.
              if (recipient?.by !== 'email' && recipient?.by !== 'externalUserId') assert.ok(!plan.some((step) => /TEMP B-TREE/.test(step)), shown)
              checked++
            }
      assert.equal(checked, 80)
    } finally {
      dir.remove()
    }
  })
})
