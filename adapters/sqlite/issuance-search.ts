import type { Database } from './database.ts'
import type { SqliteValue } from './driver.ts'
import type { IssuanceSearch } from '../../core/ports/storage.ts'
import type { IssuanceStatus } from '../../core/issuances/present.ts'
import { compareNameKeys, nameKey } from '../../core/issuances/name-key.ts'
import { str } from '../shared/sql-values.ts'

const SIGNED = 'EXISTS (SELECT 1 FROM credentials AS c WHERE c.issuance_seq = i.seq)'
const QUEUED = 'EXISTS (SELECT 1 FROM signing_jobs AS q WHERE q.issuance_seq = i.seq)'

/**
 * The status rule of `IssuanceStore.search` (core/ports/storage.ts) on issuance `i`; `expired` and
 * `valid` take the time as their one parameter. The credential and the job are looked up by their key.
 */
export const STATUS: Record<IssuanceStatus, string> = {
  revoked: 'i.revoked_at IS NOT NULL',
  pending: `i.revoked_at IS NULL AND NOT ${SIGNED} AND ${QUEUED}`,
  expired: `i.revoked_at IS NULL AND i.valid_until IS NOT NULL AND i.valid_until <= ? AND ${SIGNED}`,
  valid: `i.revoked_at IS NULL AND (i.valid_until IS NULL OR i.valid_until > ?) AND ${SIGNED}`,
}

/** The claimed issuances are where their first claims are: the club's, newest first, each joined to its issuance by key. */
export const CLAIMED_SOURCE = 'issuance_claims AS w INDEXED BY issuance_claims_by_club CROSS JOIN issuances AS i ON i.seq = w.issuance_seq'

/** The `claimed` filter on issuance `i`: one lookup of its first claim in the partial unique index. */
export const CLAIMED = 'EXISTS (SELECT 1 FROM issuance_claims AS w WHERE w.issuance_id = i.id AND w.first = 1)'

/** The pending issuances are where the queue is: the club's jobs, newest first, each joined to its issuance by key. */
export const PENDING_SOURCE = 'signing_jobs AS j INDEXED BY signing_jobs_by_club CROSS JOIN issuances AS i ON i.seq = j.issuance_seq'

/** The upper end of a prefix range: after every text that starts with the prefix (U+10FFFF is the last code point). */
const PREFIX_END = '\u{10FFFF}'

/** The templates of the club, one lookup each in a template-led index, when a search names none. */
const CLUB_TEMPLATES = 'i.achievement_id IN (SELECT id FROM achievements WHERE club = ?)'

/**
 * The statement of one page of `search`, or `null` when the page is empty without reading (a cursor naming
 * no issuance of the club in a name search). Every statement names its index (INDEXED BY): without
 * statistics SQLite prefers the index with the most equalities, which for a status filter is the
 * template's whole index rather than the few rows of the partial one (docs/decisions/0039-issuance-search.md).
 */
export function searchStatement(db: Database, club: string, query: IssuanceSearch): { sql: string; params: SqliteValue[] } | null {
  const { limit, afterSequence, achievementId, status, now, recipient, claimed = null, expiresBefore = null } = query
  const where: string[] = []
  const params: SqliteValue[] = []
  const add = (condition: string, ...values: SqliteValue[]) => {
    where.push(condition)
    params.push(...values)
  }
  let source: string
  let order = 'i.seq DESC'
  let keyset = 'i.seq < ?'

  if (recipient?.by === 'name') {
    source = 'issuances AS i INDEXED BY issuances_by_name'
    let from = recipient.value
    if (afterSequence !== null) {
      const after = db.get('SELECT recipient_name FROM issuances WHERE seq = ? AND club = ?', afterSequence, club)
      if (!after) return null
      const name = str(after.recipient_name)
      // The range starts at the later of the prefix and the cursor's name; the cursor's own name goes on by sequence.
      if (compareNameKeys(nameKey(name), nameKey(from)) > 0) from = name
      add('(i.recipient_name > ? COLLATE NOCASE OR (i.recipient_name = ? COLLATE NOCASE AND i.seq < ?))', name, name, afterSequence)
    }
    add('i.club = ?', club)
    add('i.recipient_name >= ? COLLATE NOCASE', from)
    add('i.recipient_name < ? COLLATE NOCASE', recipient.value + PREFIX_END)
    order = 'i.recipient_name COLLATE NOCASE, i.seq DESC'
    keyset = ''
  } else if (recipient) {
    source = recipient.by === 'email' ? 'issuances AS i INDEXED BY issuances_by_email' : 'issuances AS i INDEXED BY issuances_by_external_user'
    add('i.club = ?', club)
    if (achievementId === null) add(CLUB_TEMPLATES, club)
    add(recipient.by === 'email' ? 'i.recipient_email = ? COLLATE NOCASE' : 'i.external_user_id = ?', recipient.value)
  } else if (status === 'pending') {
    source = PENDING_SOURCE
    add('j.club = ?', club)
    add('i.club = ?', club)
    order = 'j.issuance_seq DESC'
    keyset = 'j.issuance_seq < ?'
  } else if (claimed === true) {
    source = CLAIMED_SOURCE
    add('w.club = ?', club)
    add('w.first = 1')
    add('i.club = ?', club)
    order = 'w.issuance_seq DESC'
    keyset = 'w.issuance_seq < ?'
  } else {
    const byTemplate = achievementId !== null
    const index =
      status === 'revoked'
        ? byTemplate
          ? 'issuances_revoked_by_template'
          : 'issuances_revoked'
        : status === 'expired' || expiresBefore !== null
          ? byTemplate
            ? 'issuances_expiring_by_template'
            : 'issuances_expiring'
          : byTemplate
            ? 'issuances_by_template'
            : 'issuances_by_club'
    source = `issuances AS i INDEXED BY ${index}`
    add('i.club = ?', club)
  }
  if (achievementId !== null) add('i.achievement_id = ?', achievementId)
  if (status !== null) add(STATUS[status], ...(status === 'expired' || status === 'valid' ? [now] : []))
  // Expiring soon: valid now (the status rule) and a validUntil before the bound, read from the expiring index.
  if (expiresBefore !== null) add('i.revoked_at IS NULL AND i.valid_until IS NOT NULL AND i.valid_until <= ?', expiresBefore)
  if (claimed !== null && source !== CLAIMED_SOURCE) add(claimed ? CLAIMED : `NOT ${CLAIMED}`)
  if (afterSequence !== null && keyset !== '') add(keyset, afterSequence)
  return { sql: `SELECT i.* FROM ${source} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`, params: [...params, limit] }
}
