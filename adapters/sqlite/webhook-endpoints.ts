import { type Database } from './database.ts'
import type { WebhookEndpointStore } from '../../core/ports/storage.ts'
import type { SqliteValue } from './driver.ts'
import { toWebhookEndpoint } from '../shared/rows.ts'

/** Column of each field `update` may set: a fixed map, so no caller text reaches the SQL. */
const COLUMNS = {
  url: ['url', (v: unknown) => v as string],
  events: ['events', (v: unknown) => (v === null ? null : JSON.stringify(v))],
  enabled: ['enabled', (v: unknown) => (v ? 1 : 0)],
  sealedSecret: ['sealed_secret', (v: unknown) => v as string],
  previousSealedSecret: ['previous_sealed_secret', (v: unknown) => v as string | null],
  previousSecretUntil: ['previous_secret_until', (v: unknown) => v as number | null],
  consecutiveGiveUps: ['consecutive_give_ups', (v: unknown) => v as number],
} as const satisfies Record<string, readonly [string, (v: unknown) => SqliteValue]>

export function createWebhookEndpointStore(db: Database): WebhookEndpointStore {
  return {
    async insert(e) {
      db.run(
        `INSERT INTO webhook_endpoints (id, club, url, events, sealed_secret, previous_sealed_secret, previous_secret_until, enabled,
           consecutive_give_ups, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        e.id,
        e.club,
        e.url,
        e.events === null ? null : JSON.stringify(e.events),
        e.sealedSecret,
        e.previousSealedSecret,
        e.previousSecretUntil,
        e.enabled ? 1 : 0,
        e.consecutiveGiveUps,
        e.createdAt,
      )
    },
    async findById(id) {
      const row = db.get('SELECT * FROM webhook_endpoints WHERE id = ?', id)
      return row ? toWebhookEndpoint(row) : null
    },
    async listByClub(club) {
      return db.all('SELECT * FROM webhook_endpoints WHERE club = ? ORDER BY created_at, id', club).map(toWebhookEndpoint)
    },
    async update(id, changes) {
      const set = Object.entries(changes).filter(([field]) => field in COLUMNS)
      if (set.length > 0) {
        const columns = set.map(([field]) => `${COLUMNS[field as keyof typeof COLUMNS][0]} = ?`).join(', ')
        const values = set.map(([field, value]) => COLUMNS[field as keyof typeof COLUMNS][1](value))
        db.run(`UPDATE webhook_endpoints SET ${columns} WHERE id = ?`, ...values, id)
      }
      const row = db.get('SELECT * FROM webhook_endpoints WHERE id = ?', id)
      return row ? toWebhookEndpoint(row) : null
    },
    async delete(id) {
      return db.run('DELETE FROM webhook_endpoints WHERE id = ?', id) > 0
    },
  }
}
