import type { Database } from './database.ts'
import type { ClubStore } from '../../core/ports/storage.ts'
import { toClub } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createClubStore(db: Database): ClubStore {
  const find = (domain: string) => {
    const row = db.get('SELECT * FROM clubs WHERE domain = ?', domain)
    return row ? toClub(row) : null
  }
  return {
    async insert(club) {
      db.run(
        'INSERT INTO clubs (domain, name, can_issue, issuer_verified, created_at) VALUES (?, ?, ?, ?, ?)',
        club.domain,
        club.name,
        club.canIssue ? 1 : 0,
        club.issuerVerified ? 1 : 0,
        club.createdAt,
      )
    },
    async findByDomain(domain) {
      return find(domain)
    },
    async update(domain, changes) {
      const club = find(domain)
      if (!club) return null
      const next = {
        name: changes.name ?? club.name,
        canIssue: changes.canIssue ?? club.canIssue,
        issuerVerified: changes.issuerVerified ?? club.issuerVerified,
      }
      db.run(
        'UPDATE clubs SET name = ?, can_issue = ?, issuer_verified = ? WHERE domain = ?',
        next.name,
        next.canIssue ? 1 : 0,
        next.issuerVerified ? 1 : 0,
        domain,
      )
      return { ...club, ...next }
    },
    async count() {
      return num(db.get('SELECT count(*) AS n FROM clubs')?.n)
    },
  }
}
