import { insertedOrConflict, type Database } from './database.ts'
import type { ClubStore } from '../../core/ports/storage.ts'
import { toClub } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createClubStore({ sql }: Database): ClubStore {
  return {
    async insert(club) {
      insertedOrConflict(
        await sql`INSERT INTO clubs (domain, name, can_issue, issuer_verified, created_at)
          VALUES (${club.domain}, ${club.name}, ${club.canIssue}, ${club.issuerVerified}, ${club.createdAt})
          ON CONFLICT DO NOTHING RETURNING 1`,
        'club',
      )
    },
    async findByDomain(domain) {
      const [row] = await sql`SELECT * FROM clubs WHERE domain = ${domain}`
      return row ? toClub(row) : null
    },
    async update(domain, changes) {
      // coalesce keeps a field the caller left out; one statement, so no read-then-write race.
      const [row] = await sql`UPDATE clubs SET
          name = coalesce(${changes.name ?? null}::text, name),
          can_issue = coalesce(${changes.canIssue ?? null}::boolean, can_issue),
          issuer_verified = coalesce(${changes.issuerVerified ?? null}::boolean, issuer_verified)
        WHERE domain = ${domain} RETURNING *`
      return row ? toClub(row) : null
    },
    async count() {
      const [row] = await sql`SELECT count(*) AS n FROM clubs`
      return num(row!.n)
    },
  }
}
