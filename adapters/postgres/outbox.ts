import { chunksOf, idsInOrder, type Database } from './database.ts'
import type { OutboxStore } from '../../core/ports/storage.ts'
import { toOutboxMessage } from '../shared/rows.ts'

export function createOutboxStore({ sql }: Database): OutboxStore {
  return {
    async enqueueMany(messages) {
      const ids: number[] = []
      for (const chunk of chunksOf(messages)) {
        const rows = chunk.map((m) => ({
          club: m.club,
          issuance_id: m.issuanceId,
          recipient: m.to,
          subject: m.subject,
          text_body: m.text,
          html_body: m.html,
          next_attempt_at: m.nextAttemptAt,
          created_at: m.createdAt,
        }))
        const returned = await sql`INSERT INTO outbox
          ${sql(rows, 'club', 'issuance_id', 'recipient', 'subject', 'text_body', 'html_body', 'next_attempt_at', 'created_at')} RETURNING id`
        ids.push(...idsInOrder(returned))
      }
      return ids
    },
    async claimDue(now, leaseMs, limit, maxAttempts) {
      // SKIP LOCKED, as for signing jobs: senders on several nodes never lease one message twice; and
      // `= ANY(ARRAY(…))`, so that the update finds the chosen rows by primary key, not by a scan.
      const rows = await sql`UPDATE outbox SET next_attempt_at = ${now + leaseMs}, attempts = attempts + 1
        WHERE id = ANY(ARRAY(
          SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ${now} AND attempts < ${maxAttempts}
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED))
        RETURNING *`
      return rows.map(toOutboxMessage).sort((a, b) => a.id - b.id)
    },
    async markSent(id, sentAt) {
      await sql`UPDATE outbox SET sent_at = ${sentAt}, last_error = NULL WHERE id = ${id}`
    },
    async markFailed(id, error, nextAttemptAt) {
      await sql`UPDATE outbox SET last_error = ${error}, next_attempt_at = ${nextAttemptAt} WHERE id = ${id}`
    },
  }
}
