/**
 * Migration 0021 (claims, share views, expiry reminders) on a database written by the version before it
 * (docs/decisions/0047-claims-and-expiry.md § Expiry reminders and `issuance.expired`): the templates
 * have no reminders, and the sweep of new issuances starts after those already stored, so that an
 * upgrade reminds nobody of an issuance made before it; one made afterwards is swept.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { chessDatabaseAtVersion } from '../support/sqlite-at-version.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'

describe('migration 0021 on a database from before', () => {
  it('templates get no reminders, the new-issuance sweep starts after the issuances stored and the expired sweep now', async (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const file = join(dir.path, 'clubcred.db')
    const db = chessDatabaseAtVersion(file, 20)
    for (const [i, id] of [41, 42, 43].entries()) {
      db.prepare(
        `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at, expires_at, valid_until)
         VALUES (?, ?, 'chess', 1, 1, ?, 'Name', 'n@example.org', '[]', 'none', 1, 9000, 9000)`,
      ).run(id, i + 1, `u${i}`)
    }
    db.prepare("UPDATE sequences SET value = 3 WHERE name = 'issuances'").run()
    db.close()

    const storage = openSqliteFile(file)
    t.after(() => storage.close())
    assert.deepStrictEqual((await storage.achievements.findById('chess', 1))?.expiryReminders, [])
    assert.deepStrictEqual(await storage.expiry.listTemplatesWithReminders(), [])
    assert.deepStrictEqual(await storage.expiry.position('issued'), { at: 0, sequence: 3 })
    const expired = await storage.expiry.position('expired')
    assert.ok(expired && Math.abs(expired.at - Date.now()) < 60_000, `the expired sweep starts at the migration: ${JSON.stringify(expired)}`)
    assert.deepStrictEqual(
      (await storage.expiry.listValidUntil({ at: 0, sequence: 0 }, 9000, 10)).map((issuance) => issuance.id),
      [41, 42, 43],
      'the stored issuances are in the new index',
    )
  })
})
