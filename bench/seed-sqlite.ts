/**
 * What the benches that need a big SQLite file share (bench/lists.bench.ts, bench/round.bench.ts): the
 * schema, one club, one template and its snapshot made through the issuer, then rows by plain SQL in one
 * transaction, since the issuing path would take an hour for a million.
 */
import Database from 'better-sqlite3'
import { createIssuer, defaultUrls } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'

export interface SeededIssuance {
  id: number
  seq: number
  createdAt: number
}

/**
 * Makes `file` hold `club` with one template, then calls `each` for the `rows` issuances it inserts
 * (sequence 1..rows, ids spread as the product's random ids are), inside one transaction, with the open
 * database for the rows the bench adds beside each issuance.
 */
export async function seedIssuances(
  file: string,
  club: string,
  rows: number,
  each: (db: Database.Database) => (issuance: SeededIssuance) => void,
): Promise<void> {
  const issuer = createIssuer({
    storage: createSqliteStorage({ driver: betterSqlite3Driver(file) }),
    masterKey: new Uint8Array(32).fill(1),
    urls: defaultUrls(8787),
  })
  await issuer.clubs.create({ domain: club, name: 'Bench Club' })
  await issuer.achievements.create(club, { name: 'Bench', description: 'Seeded by a bench.' })
  await issuer.issuances.issue(club, { achievementFormId: 1, mode: 'none', recipients: [{ externalUserId: 'seed', name: 'Seed', email: 's@bench.example' }] })
  await issuer.close()

  const db = new Database(file)
  try {
    db.pragma('synchronous = OFF')
    const template = db.prepare('SELECT achievement_id, snapshot_id, created_at FROM issuances LIMIT 1').get() as Record<string, number>
    db.exec('DELETE FROM signing_jobs; DELETE FROM events; DELETE FROM issuances')
    const issuance = db.prepare(
      `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, '[]', 'none', ?)`,
    )
    const add = each(db)
    db.transaction(() => {
      for (let seq = 1; seq <= rows; seq++) {
        // Ids are random below 2^53 in the product (issuance-id.ts); spread them likewise over the whole range,
        // so that the ids a bench then issues land among these, not all after them.
        const id = 1 + Number((BigInt(seq) * 0x9e3779b97f4a7c15n) % 9_007_199_254_740_881n)
        const createdAt = template.created_at! + seq
        issuance.run(id, seq, club, template.achievement_id, template.snapshot_id, `u${seq}`, `Recipient ${seq}`, `r${seq}@bench.example`, createdAt)
        add({ id, seq, createdAt })
      }
      db.prepare("UPDATE sequences SET value = ? WHERE name = 'issuances'").run(rows)
    })()
  } finally {
    db.close()
  }
}
