import type { PendingQuery, Row as PostgresRow } from 'postgres'
import type { Query, Row } from './database.ts'
import type { IssuanceSearch } from '../../core/ports/storage.ts'
import type { IssuanceStatus } from '../../core/issuances/present.ts'
import { nameKey } from '../../core/issuances/name-key.ts'

type Fragment = PendingQuery<PostgresRow[]>

/** The upper end of a prefix range: after every text that starts with the prefix (U+10FFFF is the last code point). */
const PREFIX_END = '\u{10FFFF}'

/**
 * The status rule of `IssuanceStore.search` (core/ports/storage.ts) on issuance `i`, the credential and
 * the job each looked up by its unique index. Fenced (OFFSET 0) so that each stays a lookup per row the
 * page walks: turned into a join, the planner hashes the whole queue or credentials table and then sorts.
 */
export function statusCondition(sql: Query, status: IssuanceStatus, now: number): Fragment {
  const signed = sql`EXISTS (SELECT 1 FROM credentials AS c WHERE c.issuance_id = i.id OFFSET 0)`
  switch (status) {
    case 'revoked':
      return sql`i.revoked_at IS NOT NULL`
    case 'pending':
      return sql`i.revoked_at IS NULL AND NOT ${signed} AND EXISTS (SELECT 1 FROM signing_jobs AS q WHERE q.issuance_id = i.id OFFSET 0)`
    case 'expired':
      return sql`i.revoked_at IS NULL AND i.valid_until IS NOT NULL AND i.valid_until <= ${now} AND ${signed}`
    case 'valid':
      return sql`i.revoked_at IS NULL AND (i.valid_until IS NULL OR i.valid_until > ${now}) AND ${signed}`
  }
}

/** The `claimed` filter on issuance `i`: one lookup of its first claim in the partial unique index, fenced as the status rule is. */
function claimedCondition(sql: Query, claimed: boolean): Fragment {
  const taken = sql`EXISTS (SELECT 1 FROM issuance_claims AS w WHERE w.issuance_id = i.id AND w.first OFFSET 0)`
  return claimed ? taken : sql`NOT ${taken}`
}

const and = (sql: Query, conditions: Fragment[]): Fragment => conditions.reduce((all, condition) => sql`${all} AND ${condition}`)

/**
 * One page of `search`: each filter led by the index that holds its rows in the page's order, so that
 * the LIMIT ends the walk (docs/decisions/0039-issuance-search.md). The name's key is
 * `lower(recipient_name COLLATE "C")`, the expression of `issuances_by_name`, character for character.
 */
export async function searchRows(sql: Query, club: string, query: IssuanceSearch): Promise<readonly Row[]> {
  const { limit, afterSequence, achievementId, status, now, recipient, claimed = null, expiresBefore = null } = query
  const where: Fragment[] = [sql`i.club = ${club}`]
  if (achievementId !== null) where.push(sql`i.achievement_id = ${achievementId}`)
  if (status !== null) where.push(statusCondition(sql, status, now))
  // Expiring soon: valid now and a validUntil before the bound; the partial index of those that can expire holds them.
  if (expiresBefore !== null) where.push(sql`i.revoked_at IS NULL AND i.valid_until IS NOT NULL AND i.valid_until <= ${expiresBefore}`)
  // `claimed=true` without a recipient or `pending` walks the first claims instead (below).
  const claimsLead = claimed === true && !recipient && status !== 'pending'
  if (claimed !== null && !claimsLead) where.push(claimedCondition(sql, claimed))

  if (recipient?.by === 'name') {
    const key = sql`lower(i.recipient_name COLLATE "C")`
    const prefix = nameKey(recipient.value)
    where.push(sql`${key} >= ${prefix}`, sql`${key} < ${prefix + PREFIX_END}`)
    if (afterSequence !== null) {
      const [after] = await sql`SELECT lower(recipient_name COLLATE "C") AS name_key FROM issuances WHERE seq = ${afterSequence} AND club = ${club}`
      if (!after) return []
      const from = String(after.name_key)
      where.push(sql`${key} >= ${from}`, sql`(${key} > ${from} OR (${key} = ${from} AND i.seq < ${afterSequence}))`)
    }
    return sql`SELECT i.* FROM issuances AS i WHERE ${and(sql, where)} ORDER BY ${key}, i.seq DESC LIMIT ${limit}`
  }
  if (afterSequence !== null) where.push(sql`i.seq < ${afterSequence}`)
  if (recipient) {
    // No template named: one lookup per template of the club in the template-led index of the field.
    if (achievementId === null) where.push(sql`i.achievement_id = ANY(ARRAY(SELECT id FROM achievements WHERE club = ${club}))`)
    // The e-mail rule as `findHeld` keeps it: the database's `lower()` for the index, then the "C" one for the rule.
    where.push(
      recipient.by === 'email'
        ? sql`lower(i.recipient_email) = lower(${recipient.value}) AND lower(i.recipient_email COLLATE "C") = lower(${recipient.value}::text COLLATE "C")`
        : sql`i.external_user_id = ${recipient.value}`,
    )
    return sql`SELECT i.* FROM issuances AS i WHERE ${and(sql, where)} ORDER BY i.seq DESC LIMIT ${limit}`
  }
  if (status === 'pending') {
    const keyset = afterSequence !== null ? sql`AND j.issuance_seq < ${afterSequence}` : sql``
    // Each job's issuance looked up by its key, fenced (OFFSET 0): joined freely, the planner would hash
    // the club's every issuance against the queue rather than walk the queue until the page is full.
    return sql`SELECT i.* FROM signing_jobs AS j
      CROSS JOIN LATERAL (SELECT * FROM issuances AS i WHERE i.id = j.issuance_id AND ${and(sql, where)} OFFSET 0) AS i
      WHERE j.club = ${club} ${keyset} ORDER BY j.issuance_seq DESC LIMIT ${limit}`
  }
  if (claimsLead) {
    const keyset = afterSequence !== null ? sql`AND w.issuance_seq < ${afterSequence}` : sql``
    // As the queue for `pending`: the club's first claims in issue order, each issuance looked up by its key.
    return sql`SELECT i.* FROM issuance_claims AS w
      CROSS JOIN LATERAL (SELECT * FROM issuances AS i WHERE i.seq = w.issuance_seq AND ${and(sql, where)} OFFSET 0) AS i
      WHERE w.club = ${club} AND w.first ${keyset} ORDER BY w.issuance_seq DESC LIMIT ${limit}`
  }
  return sql`SELECT i.* FROM issuances AS i WHERE ${and(sql, where)} ORDER BY i.seq DESC LIMIT ${limit}`
}
