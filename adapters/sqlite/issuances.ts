import { rowsAtOnce, type Database } from './database.ts'
import type { Issuance, NewIssuance, TemplateSnapshot } from '../../core/issuances/issuance.ts'
import type { IssuanceStore, SnapshotStore } from '../../core/ports/storage.ts'
import { toIssuance } from '../shared/rows.ts'
import { json, num, str } from '../shared/sql-values.ts'
import { validUntilOf } from '../../core/credentials/valid-until.ts'
import { PENDING_SOURCE, STATUS, searchStatement } from './issuance-search.ts'

/** A copy, not the caller's objects, built by hand: structuredClone stood out in the profile of bench:issue. */
const stored = (issuance: NewIssuance, sequence: number): Issuance => ({
  ...issuance,
  recipient: { ...issuance.recipient },
  evidences: issuance.evidences.map((evidence) => ({ ...evidence })),
  sequence,
})

/**
 * The issuances of a claimed round, each by its id (a unique index since migration 0011). Written as
 * `club = ? AND id IN (…)`, SQLite walked the club's whole index and filtered it (every signing round read
 * as many rows as the club had issued); CROSS JOIN makes the ids the outer loop (`npm run -s bench:round`, test/adapters/sqlite-query-plans.test.ts).
 */
export const ISSUANCES_BY_IDS = 'SELECT i.* FROM json_each(?) AS j CROSS JOIN issuances AS i ON i.id = j.value WHERE i.club = ?'

export function createIssuanceStore(db: Database): IssuanceStore {
  // DO NOTHING: an id drawn twice is skipped (the caller draws again), the other rows go in.
  const insertMany = rowsAtOnce(
    db,
    `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email,
       evidences, mode, expires_at, created_at, revoked_at, revocation_reason, valid_until) VALUES`,
    '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    'ON CONFLICT (id) DO NOTHING',
  )
  return {
    async insert(issuance) {
      // The counter first: a failed insert (a taken id) leaves a gap, never a number handed out twice.
      const sequence = num(db.get("UPDATE sequences SET value = value + 1 WHERE name = 'issuances' RETURNING value")!.value)
      // The primary key on `id` is the constraint that turns a random id drawn twice into StorageConflict.
      db.run(
        `INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email,
           evidences, mode, expires_at, created_at, revoked_at, revocation_reason, valid_until)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        issuance.id,
        sequence,
        issuance.club,
        issuance.achievementId,
        issuance.snapshotId,
        issuance.recipient.externalUserId,
        issuance.recipient.name,
        issuance.recipient.email,
        JSON.stringify(issuance.evidences),
        issuance.mode,
        issuance.expiresAt,
        issuance.createdAt,
        issuance.revokedAt,
        issuance.revocationReason,
        validUntilOf(issuance.expiresAt),
      )
      return stored(issuance, sequence)
    },
    async insertMany(issuances) {
      if (issuances.length === 0) return []
      // The counter moved once for all: a skipped row leaves a gap, never a number handed out twice.
      const last = num(db.get("UPDATE sequences SET value = value + ? WHERE name = 'issuances' RETURNING value", issuances.length)!.value)
      const first = last - issuances.length + 1
      const rows = issuances.map((issuance, i) => ({ issuance, sequence: first + i }))
      const chunks = insertMany.run(rows, ({ issuance: i, sequence }) => [
        i.id,
        sequence,
        i.club,
        i.achievementId,
        i.snapshotId,
        i.recipient.externalUserId,
        i.recipient.name,
        i.recipient.email,
        JSON.stringify(i.evidences),
        i.mode,
        i.expiresAt,
        i.createdAt,
        i.revokedAt,
        i.revocationReason,
        validUntilOf(i.expiresAt),
      ])
      return chunks.flatMap((chunk) => {
        if (chunk.changes === chunk.rows.length) return chunk.rows.map(({ issuance, sequence }) => stored(issuance, sequence))
        // Some were skipped: a row went in when its sequence, unique and handed out here, is in the table.
        const from = chunk.rows[0]!.sequence
        const to = chunk.rows[chunk.rows.length - 1]!.sequence
        const taken = new Set(db.all('SELECT seq FROM issuances WHERE seq BETWEEN ? AND ?', from, to).map((row) => num(row.seq)))
        return chunk.rows.map(({ issuance, sequence }) => (taken.has(sequence) ? stored(issuance, sequence) : null))
      })
    },
    async findById(club, id) {
      const row = db.get('SELECT * FROM issuances WHERE club = ? AND id = ?', club, id)
      return row ? toIssuance(row) : null
    },
    async findByIdAcrossClubs(id) {
      const row = db.get('SELECT * FROM issuances WHERE id = ?', id)
      return row ? toIssuance(row) : null
    },
    async findByIds(club, ids) {
      if (ids.length === 0) return []
      return db.all(ISSUANCES_BY_IDS, JSON.stringify(ids), club).map(toIssuance)
    },
    async findHeld(club, achievementId, recipients) {
      // NOCASE folds ASCII letters only: the rule of `sameRecipientEmail` (core/issuances/recipient-email.ts).
      return recipients.map(({ externalUserId, email }) =>
        (externalUserId !== null
          ? db.all('SELECT * FROM issuances WHERE club = ? AND achievement_id = ? AND external_user_id = ?', club, achievementId, externalUserId)
          : db.all('SELECT * FROM issuances WHERE club = ? AND achievement_id = ? AND recipient_email = ? COLLATE NOCASE', club, achievementId, email)
        ).map(toIssuance),
      )
    },
    async countByStatus(club, now) {
      // Each count through its own index (migration 0016), by the status rule of `search`.
      const row = db.get(
        `SELECT (SELECT count(*) FROM issuances WHERE club = ?) AS total,
           (SELECT count(*) FROM issuances AS i INDEXED BY issuances_revoked WHERE i.club = ? AND ${STATUS.revoked}) AS revoked,
           (SELECT count(*) FROM ${PENDING_SOURCE} WHERE j.club = ? AND i.club = ? AND ${STATUS.pending}) AS pending,
           (SELECT count(*) FROM issuances AS i INDEXED BY issuances_expiring WHERE i.club = ? AND ${STATUS.expired}) AS expired`,
        club,
        club,
        club,
        club,
        club,
        now,
      )
      return { total: num(row?.total), pending: num(row?.pending), revoked: num(row?.revoked), expired: num(row?.expired) }
    },
    async search(club, query) {
      const statement = searchStatement(db, club, query)
      return statement ? db.all(statement.sql, ...statement.params).map(toIssuance) : []
    },
    async list(club, { limit, beforeSequence, achievementId = null }) {
      const conditions = ['club = ?']
      const params: (string | number)[] = [club]
      if (beforeSequence !== null) {
        conditions.push('seq < ?')
        params.push(beforeSequence)
      }
      if (achievementId !== null) {
        conditions.push('achievement_id = ?')
        params.push(achievementId)
      }
      return db.all(`SELECT * FROM issuances WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT ?`, ...params, limit).map(toIssuance)
    },
    async revoke(club, id, revokedAt, reason) {
      return (
        db.run('UPDATE issuances SET revoked_at = ?, revocation_reason = ? WHERE club = ? AND id = ? AND revoked_at IS NULL', revokedAt, reason, club, id) > 0
      )
    },
  }
}

export function createSnapshotStore(db: Database): SnapshotStore {
  return {
    async insert(snapshot) {
      const row = db.get(
        'INSERT INTO snapshots (club, achievement_id, view, created_at) VALUES (?, ?, ?, ?) RETURNING id',
        snapshot.club,
        snapshot.achievementId,
        JSON.stringify(snapshot.view),
        snapshot.createdAt,
      )
      return num(row!.id)
    },
    async findById(id) {
      const row = db.get('SELECT * FROM snapshots WHERE id = ?', id)
      if (!row) return null
      const snapshot: TemplateSnapshot = {
        id: num(row.id),
        club: str(row.club),
        achievementId: num(row.achievement_id),
        view: json(row.view),
        createdAt: num(row.created_at),
      }
      return snapshot
    },
  }
}
