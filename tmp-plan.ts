import Database from 'better-sqlite3'
import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { createSqliteStorage } from '/work/main/adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '/work/main/adapters/sqlite/driver-better-sqlite3.ts'
const file = join(mkdtempSync(join(tmpdir(), 'plan-')), 'db')
const s = createSqliteStorage({ driver: betterSqlite3Driver(file) })
await s.close()
const db = new Database(file)
db.pragma('foreign_keys = OFF')
const N = 200_000
db.exec('BEGIN')
const ins = db.prepare("INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email, evidences, mode, expires_at, created_at) VALUES (?, ?, 'a', 1, 1, ?, 'n', ?, '[]', 'none', NULL, 0)")
const job = db.prepare("INSERT INTO signing_jobs (issuance_id, club, issuance_seq, lease_until) VALUES (?, 'a', ?, ?)")
for (let i = 1; i <= N; i++) { ins.run(i * 7, i, 'u' + i, 'e' + i + '@x'); job.run(i * 7, i, i % 50 === 0 ? 5 : null) }
db.exec('COMMIT')
const ids = JSON.stringify(Array.from({ length: 1000 }, (_, i) => (N - 1000 + i) * 7))
const queries: Record<string, [string, unknown[]]> = {
  findByIds_old: ["SELECT * FROM issuances WHERE club = ? AND id IN (SELECT value FROM json_each(?))", ['a', ids]],
  findByIds_new: ["SELECT i.* FROM json_each(?) AS j CROSS JOIN issuances AS i ON i.id = j.value WHERE i.club = ?", [ids, 'a']],
  claim_old: ["SELECT issuance_id FROM signing_jobs WHERE lease_until IS NULL OR lease_until < ? ORDER BY issuance_seq LIMIT ?", [10, 1000]],
  claim_new: [`SELECT issuance_id, issuance_seq FROM (SELECT issuance_id, issuance_seq FROM signing_jobs WHERE lease_until IS NULL ORDER BY issuance_seq LIMIT ?)
    UNION ALL SELECT issuance_id, issuance_seq FROM (SELECT issuance_id, issuance_seq FROM signing_jobs WHERE lease_until < ? ORDER BY issuance_seq LIMIT ?) ORDER BY issuance_seq LIMIT ?`, [1000, 10, 1000, 1000]],
}
for (const [name, [sql, params]] of Object.entries(queries)) {
  const st = db.prepare(sql)
  console.log(name, db.prepare('EXPLAIN QUERY PLAN ' + sql).all(...params).map((r: any) => r.detail).join(' | '))
  const t = performance.now(); let rows: any[] = []
  for (let k = 0; k < 20; k++) rows = st.all(...params)
  console.log(name, ((performance.now() - t) / 20).toFixed(2), 'ms', rows.length, JSON.stringify(rows.slice(0, 2).map((r: any) => r.id ?? r.issuance_id)))
}
