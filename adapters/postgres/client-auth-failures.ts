import type { Database } from './database.ts'
import type { ClientAuthFailureStore } from '../../core/ports/storage.ts'
import { toClientAuthFailureWindow } from '../shared/rows.ts'

export function createClientAuthFailureStore({ sql }: Database): ClientAuthFailureStore {
  return {
    async recordFailure(clientId, now, windowMs) {
      // One statement, so that concurrent failures from every node all count (the row lock of the
      // upsert orders them). Selecting from `clients` writes no row for an id that no client has.
      const [row] = await sql`
        INSERT INTO client_auth_failures (client_id, failures, ends_at)
        SELECT id, 1, ${now + windowMs} FROM clients WHERE id = ${clientId}
        ON CONFLICT (client_id) DO UPDATE SET
          failures = CASE WHEN client_auth_failures.ends_at <= ${now} THEN 1 ELSE client_auth_failures.failures + 1 END,
          ends_at = CASE WHEN client_auth_failures.ends_at <= ${now} THEN excluded.ends_at ELSE client_auth_failures.ends_at END
        RETURNING client_id, failures, ends_at`
      return row ? toClientAuthFailureWindow(row) : null
    },
    async find(clientId, now) {
      const [row] = await sql`SELECT client_id, failures, ends_at FROM client_auth_failures WHERE client_id = ${clientId} AND ends_at > ${now}`
      return row ? toClientAuthFailureWindow(row) : null
    },
    async clear(clientId) {
      await sql`DELETE FROM client_auth_failures WHERE client_id = ${clientId}`
    },
    async purgeEnded(now) {
      return (await sql`DELETE FROM client_auth_failures WHERE ends_at <= ${now}`).count
    },
  }
}
