import { consecutiveIds, rowsAtOnce, type Database } from './database.ts'
import type { OutboxStore } from '../../core/ports/storage.ts'
import { toOutboxMessage } from '../shared/rows.ts'

export function createOutboxStore(db: Database): OutboxStore {
  const insertMany = rowsAtOnce(
    db,
    'INSERT INTO outbox (club, issuance_id, recipient, subject, text_body, html_body, next_attempt_at, created_at) VALUES',
    '(?, ?, ?, ?, ?, ?, ?, ?)',
  )
  return {
    async enqueueMany(messages) {
      return consecutiveIds(insertMany.run(messages, (m) => [m.club, m.issuanceId, m.to, m.subject, m.text, m.html, m.nextAttemptAt, m.createdAt]))
    },
    async claimDue(now, leaseMs, limit, maxAttempts) {
      return db
        .all(
          `UPDATE outbox SET next_attempt_at = ?, attempts = attempts + 1
           WHERE id IN (
             SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ? AND attempts < ?
             ORDER BY id LIMIT ?)
           RETURNING *`,
          now + leaseMs,
          now,
          maxAttempts,
          limit,
        )
        .map(toOutboxMessage)
        .sort((a, b) => a.id - b.id)
    },
    async markSent(id, sentAt) {
      db.run('UPDATE outbox SET sent_at = ?, last_error = NULL WHERE id = ?', sentAt, id)
    },
    async markFailed(id, error, nextAttemptAt) {
      db.run('UPDATE outbox SET last_error = ?, next_attempt_at = ? WHERE id = ?', error, nextAttemptAt, id)
    },
  }
}
