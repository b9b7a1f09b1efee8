import { chunksOf, insertedOrConflict, type Database } from './database.ts'
import type { Issuance, TemplateSnapshot } from '../../core/issuances/issuance.ts'
import type { IssuanceStore, SnapshotStore } from '../../core/ports/storage.ts'
import { toIssuance } from '../shared/rows.ts'
import { json, num, str } from '../shared/sql-values.ts'
import { validUntilOf } from '../../core/credentials/valid-until.ts'
import { searchRows, statusCondition } from './issuance-search.ts'

export function createIssuanceStore({ sql, lockClubs }: Database): IssuanceStore {
  return {
    async insert(issuance) {
      // A club's sequences must increase in commit order: only true while the unit holds the club's
      // issuing lock (a unit of the club or of the whole database already does; any other takes it here).
      await lockClubs([issuance.club], 'issuing')
      // nextval is taken even when the id conflicts: a gap, never a number handed out twice.
      const row = insertedOrConflict(
        await sql`INSERT INTO issuances (id, seq, club, achievement_id, snapshot_id, external_user_id, recipient_name, recipient_email,
            evidences, mode, expires_at, created_at, revoked_at, revocation_reason, valid_until)
          VALUES (${issuance.id}, nextval('issuance_seq'), ${issuance.club}, ${issuance.achievementId}, ${issuance.snapshotId},
            ${issuance.recipient.externalUserId}, ${issuance.recipient.name}, ${issuance.recipient.email}, ${JSON.stringify(issuance.evidences)},
            ${issuance.mode}, ${issuance.expiresAt}, ${issuance.createdAt}, ${issuance.revokedAt}, ${issuance.revocationReason},
            ${validUntilOf(issuance.expiresAt)})
          ON CONFLICT DO NOTHING RETURNING seq`,
        'issuance',
      )
      return { ...structuredClone(issuance), sequence: num(row.seq) }
    },
    async insertMany(issuances) {
      if (issuances.length === 0) return []
      await lockClubs(
        issuances.map((issuance) => issuance.club),
        'issuing',
      )
      // The sequence values first, one each, in increasing order (under the clubs' issuing locks, so no other unit
      // of these clubs takes one between); a skipped row leaves a gap, never a number handed out twice.
      const sequences = (await sql`SELECT nextval('issuance_seq') AS seq FROM generate_series(1, ${issuances.length})`)
        .map((row) => num(row.seq))
        .sort((a, b) => a - b)
      const inserted = new Set<number>()
      for (const chunk of chunksOf(issuances.map((issuance, i) => ({ issuance, sequence: sequences[i]! })))) {
        const rows = chunk.map(({ issuance: i, sequence }) => ({
          id: i.id,
          seq: sequence,
          club: i.club,
          achievement_id: i.achievementId,
          snapshot_id: i.snapshotId,
          external_user_id: i.recipient.externalUserId,
          recipient_name: i.recipient.name,
          recipient_email: i.recipient.email,
          evidences: JSON.stringify(i.evidences),
          mode: i.mode,
          expires_at: i.expiresAt,
          created_at: i.createdAt,
          revoked_at: i.revokedAt,
          revocation_reason: i.revocationReason,
          valid_until: validUntilOf(i.expiresAt),
        }))
        const returned = await sql`INSERT INTO issuances ${sql(rows, Object.keys(rows[0]!) as (keyof (typeof rows)[number])[])}
          ON CONFLICT (id) DO NOTHING RETURNING id`
        for (const row of returned) inserted.add(num(row.id))
      }
      // Of one id given twice, the first row went in (the VALUES go in order): the later one is skipped.
      return issuances.map((issuance, i) => (inserted.delete(issuance.id) ? { ...structuredClone(issuance), sequence: sequences[i]! } : null))
    },
    async findById(club, id) {
      const [row] = await sql`SELECT * FROM issuances WHERE club = ${club} AND id = ${id}`
      return row ? toIssuance(row) : null
    },
    async findByIdAcrossClubs(id) {
      const [row] = await sql`SELECT * FROM issuances WHERE id = ${id}`
      return row ? toIssuance(row) : null
    },
    async findByIds(club, ids) {
      if (ids.length === 0) return []
      return (await sql`SELECT * FROM issuances WHERE club = ${club} AND id = ANY(${ids}::int8[])`).map(toIssuance)
    },
    async findHeld(club, achievementId, recipients) {
      if (recipients.length === 0) return []
      // One statement for the batch: each recipient by its place (`at`), one index lookup each through
      // the index of its kind, and only in the branch of its kind (a lookup of a null e-mail finds
      // nothing, but the planner, before the table has statistics, may walk the template's every
      // issuance for it). The lateral subqueries are fenced (OFFSET 0) so that the plan stays a loop of
      // lookups: estimated from the arrays' lengths, the planner would rather hash the template's every
      // issuance, a cost that grows with the table where the lookups' does not.
      // The e-mail rule is `sameRecipientEmail`'s (core/issuances/recipient-email.ts): `lower()` under the
      // "C" collation folds ASCII letters only. The database's own `lower()` is kept before it for the
      // index `issuances_by_email`: under any collation that lower-cases A-Z as ASCII, it matches every
      // pair the rule matches, and the "C" one then drops those only a Unicode fold would match.
      const byId = recipients.flatMap((r, at) => (r.externalUserId !== null ? [{ value: r.externalUserId, at }] : []))
      const byEmail = recipients.flatMap((r, at) => (r.externalUserId === null ? [{ value: r.email, at }] : []))
      const rows = await sql`SELECT r.at, i.* FROM unnest(${byId.map((r) => r.value)}::text[], ${byId.map((r) => r.at)}::int4[]) AS r(external_user_id, at)
          CROSS JOIN LATERAL (SELECT * FROM issuances
            WHERE club = ${club} AND achievement_id = ${achievementId} AND external_user_id = r.external_user_id OFFSET 0) AS i
        UNION ALL
        SELECT r.at, i.* FROM unnest(${byEmail.map((r) => r.value)}::text[], ${byEmail.map((r) => r.at)}::int4[]) AS r(email, at)
          CROSS JOIN LATERAL (SELECT * FROM issuances
            WHERE club = ${club} AND achievement_id = ${achievementId} AND lower(recipient_email) = lower(r.email)
              AND lower(recipient_email COLLATE "C") = lower(r.email COLLATE "C") OFFSET 0) AS i`
      const held: Issuance[][] = recipients.map(() => [])
      for (const row of rows) held[num(row.at)]!.push(toIssuance(row))
      return held
    },
    async countByStatus(club, now) {
      // Each count through its own index (migration 9), by the status rule of `search`.
      const [row] = await sql`SELECT (SELECT count(*) FROM issuances WHERE club = ${club}) AS total,
          (SELECT count(*) FROM issuances AS i WHERE i.club = ${club} AND ${statusCondition(sql, 'revoked', now)}) AS revoked,
          (SELECT count(*) FROM signing_jobs AS j CROSS JOIN LATERAL (SELECT 1 FROM issuances AS i
            WHERE i.id = j.issuance_id AND i.club = ${club} AND ${statusCondition(sql, 'pending', now)} OFFSET 0) AS i
            WHERE j.club = ${club}) AS pending,
          (SELECT count(*) FROM issuances AS i WHERE i.club = ${club} AND ${statusCondition(sql, 'expired', now)}) AS expired`
      return { total: num(row!.total), pending: num(row!.pending), revoked: num(row!.revoked), expired: num(row!.expired) }
    },
    async search(club, query) {
      return (await searchRows(sql, club, query)).map(toIssuance)
    },
    async list(club, { limit, beforeSequence, achievementId = null }) {
      const rows = await sql`SELECT * FROM issuances WHERE club = ${club}
        ${beforeSequence !== null ? sql`AND seq < ${beforeSequence}` : sql``}
        ${achievementId !== null ? sql`AND achievement_id = ${achievementId}` : sql``}
        ORDER BY seq DESC LIMIT ${limit}`
      return rows.map(toIssuance)
    },
    async revoke(club, id, revokedAt, reason) {
      const result = await sql`UPDATE issuances SET revoked_at = ${revokedAt}, revocation_reason = ${reason}
        WHERE club = ${club} AND id = ${id} AND revoked_at IS NULL`
      return result.count > 0
    },
  }
}

export function createSnapshotStore({ sql }: Database): SnapshotStore {
  return {
    async insert(snapshot) {
      const [row] = await sql`INSERT INTO snapshots (club, achievement_id, view, created_at)
        VALUES (${snapshot.club}, ${snapshot.achievementId}, ${JSON.stringify(snapshot.view)}, ${snapshot.createdAt}) RETURNING id`
      return num(row!.id)
    },
    async findById(id) {
      const [row] = await sql`SELECT * FROM snapshots WHERE id = ${id}`
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
