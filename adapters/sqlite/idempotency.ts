import type { Database } from './database.ts'
import type { IdempotencyStore } from '../../core/ports/storage.ts'
import { toIdempotencyRecord } from '../shared/rows.ts'

export function createIdempotencyStore(db: Database): IdempotencyStore {
  return {
    async find(scope, key) {
      const row = db.get('SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?', scope, key)
      return row ? toIdempotencyRecord(row) : null
    },
    async insert(record) {
      db.run(
        `INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        record.scope,
        record.key,
        record.requestHash,
        record.response?.status ?? null,
        record.response?.body ?? null,
        record.createdAt,
        record.expiresAt,
      )
    },
    async complete(scope, key, response) {
      db.run('UPDATE idempotency_keys SET response_status = ?, response_body = ? WHERE scope = ? AND key = ?', response.status, response.body, scope, key)
    },
    async delete(scope, key) {
      db.run('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?', scope, key)
    },
    async purgeExpired(now) {
      return db.run('DELETE FROM idempotency_keys WHERE expires_at < ?', now)
    },
  }
}
