import type { Database } from './database.ts'
import type { ClientAuthFailureStore } from '../../core/ports/storage.ts'
import { toClientAuthFailureWindow } from '../shared/rows.ts'

export function createClientAuthFailureStore(db: Database): ClientAuthFailureStore {
  return {
    async recordFailure(clientId, now, windowMs) {
      // One statement, so that concurrent failures from several connections all count. Selecting from
      // `clients` writes no row for an id that no client has.
      const row = db.get(
        `INSERT INTO client_auth_failures (client_id, failures, ends_at)
         SELECT id, 1, ? FROM clients WHERE id = ?
         ON CONFLICT (client_id) DO UPDATE SET
           failures = CASE WHEN ends_at <= ? THEN 1 ELSE failures + 1 END,
           ends_at = CASE WHEN ends_at <= ? THEN excluded.ends_at ELSE ends_at END
         RETURNING client_id, failures, ends_at`,
        now + windowMs,
        clientId,
        now,
        now,
      )
      return row ? toClientAuthFailureWindow(row) : null
    },
    async find(clientId, now) {
      const row = db.get('SELECT client_id, failures, ends_at FROM client_auth_failures WHERE client_id = ? AND ends_at > ?', clientId, now)
      return row ? toClientAuthFailureWindow(row) : null
    },
    async clear(clientId) {
      db.run('DELETE FROM client_auth_failures WHERE client_id = ?', clientId)
    },
    async purgeEnded(now) {
      return db.run('DELETE FROM client_auth_failures WHERE ends_at <= ?', now)
    },
  }
}
