/**
 * The plans of the claims' and expiry's reads on SQLite (docs/decisions/0047-claims-and-expiry.md): the `claimed` filter is
 * one lookup per issuance in the claims' partial unique index beside the walk each other filter makes, and
 * the expiry sweeps walk `issuances_by_valid_until` in their order from their position, never the table.
 *
 * @see docs/decisions/0047-claims-and-expiry.md
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { createDatabase } from '../../adapters/sqlite/database.ts'
import { searchStatement } from '../../adapters/sqlite/issuance-search.ts'
import type { IssuanceStatus } from '../../core/issuances/present.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'

async function withDatabase<T>(use: (db: ReturnType<typeof createDatabase>) => T): Promise<T> {
  const dir = tempDir()
  try {
    const file = join(dir.path, 'clubcred.db')
    await openSqliteFile(file).close()
    return use(createDatabase(betterSqlite3Driver(file)))
  } finally {
    dir.remove()
  }
}

const planOf = (db: ReturnType<typeof createDatabase>, sql: string, params: unknown[]) =>
  db.all(`EXPLAIN QUERY PLAN ${sql}`, ...(params as never[])).map((row) => String(row.detail))

describe('sqlite query plans of claims and expiry', () => {
  it('claimed=false looks each issuance up in the first-claim index beside the walk of every status filter; claimed=true walks the first claims', async () => {
    await withDatabase((db) => {
      let checked = 0
      for (const status of [null, 'pending', 'valid', 'expired', 'revoked'] as (IssuanceStatus | null)[])
        for (const claimed of [true, false]) {
          const statement = searchStatement(db, 'chess', { limit: 21, afterSequence: 5, achievementId: null, status, now: 1, recipient: null, claimed })!
          const plan = planOf(db, statement.sql, statement.params)
          const shown = `${status} ${claimed}: ${plan.join(' | ')}`
          assert.ok(!plan.some((step) => /^SCAN (i|j|w|issuances|issuance_claims)\b/.test(step)), shown)
          const walk =
            claimed && status !== 'pending'
              ? /^SEARCH w USING (COVERING )?INDEX issuance_claims_by_club \(club=\? AND issuance_seq<\?\)/
              : /SEARCH w (EXISTS )?USING COVERING INDEX issuance_claims_first \(issuance_id=\?\)/
          assert.ok(
            plan.some((step) => walk.test(step)),
            shown,
          )
          assert.ok(!plan.some((step) => /TEMP B-TREE/.test(step)), shown)
          checked++
        }
      assert.equal(checked, 10)
    })
  })

  it('the sweeps walk issuances_by_valid_until from their position, in order, and new issuances by their key', async () => {
    await withDatabase((db) => {
      const due = planOf(
        db,
        `SELECT * FROM issuances INDEXED BY issuances_by_valid_until
         WHERE valid_until IS NOT NULL AND revoked_at IS NULL AND (valid_until, seq) > (?, ?) AND valid_until <= ?
         ORDER BY valid_until, seq LIMIT ?`,
        [1, 2, 3, 200],
      )
      assert.ok(
        due.some((step) => /^SEARCH issuances USING INDEX issuances_by_valid_until \(valid_until>\? AND valid_until<\?\)/.test(step)),
        due.join(' | '),
      )
      assert.ok(!due.some((step) => /TEMP B-TREE|^SCAN/.test(step)), due.join(' | '))
      const issued = planOf(db, 'SELECT * FROM issuances WHERE seq > ? ORDER BY seq LIMIT ?', [1, 200])
      assert.ok(
        issued.some((step) => /SEARCH issuances USING INTEGER PRIMARY KEY \(rowid>\?\)/.test(step)),
        issued.join(' | '),
      )
    })
  })
})
