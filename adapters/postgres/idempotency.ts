import { insertedOrConflict, type Database } from './database.ts'
import type { IdempotencyStore } from '../../core/ports/storage.ts'
import { toIdempotencyRecord } from '../shared/rows.ts'

export function createIdempotencyStore({ sql }: Database): IdempotencyStore {
  return {
    async find(scope, key) {
      const [row] = await sql`SELECT * FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`
      return row ? toIdempotencyRecord(row) : null
    },
    async insert(record) {
      insertedOrConflict(
        await sql`INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body, created_at, expires_at)
          VALUES (${record.scope}, ${record.key}, ${record.requestHash}, ${record.response?.status ?? null}, ${record.response?.body ?? null},
            ${record.createdAt}, ${record.expiresAt})
          ON CONFLICT DO NOTHING RETURNING 1`,
        'idempotency key',
      )
    },
    async complete(scope, key, response) {
      await sql`UPDATE idempotency_keys SET response_status = ${response.status}, response_body = ${response.body} WHERE scope = ${scope} AND key = ${key}`
    },
    async delete(scope, key) {
      await sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`
    },
    async purgeExpired(now) {
      return (await sql`DELETE FROM idempotency_keys WHERE expires_at < ${now}`).count
    },
  }
}
