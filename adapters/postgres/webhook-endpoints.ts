import { insertedOrConflict, type Database } from './database.ts'
import type { WebhookEndpointStore } from '../../core/ports/storage.ts'
import { toWebhookEndpoint } from '../shared/rows.ts'

export function createWebhookEndpointStore({ sql }: Database): WebhookEndpointStore {
  return {
    async insert(e) {
      insertedOrConflict(
        await sql`INSERT INTO webhook_endpoints (id, club, url, events, sealed_secret, previous_sealed_secret, previous_secret_until,
            enabled, consecutive_give_ups, created_at)
          VALUES (${e.id}, ${e.club}, ${e.url}, ${e.events === null ? null : JSON.stringify(e.events)}, ${e.sealedSecret},
            ${e.previousSealedSecret}, ${e.previousSecretUntil}, ${e.enabled}, ${e.consecutiveGiveUps}, ${e.createdAt})
          ON CONFLICT DO NOTHING RETURNING 1`,
        'webhook endpoint',
      )
    },
    async findById(id) {
      const [row] = await sql`SELECT * FROM webhook_endpoints WHERE id = ${id}`
      return row ? toWebhookEndpoint(row) : null
    },
    async listByClub(club) {
      return (await sql`SELECT * FROM webhook_endpoints WHERE club = ${club} ORDER BY created_at, id`).map(toWebhookEndpoint)
    },
    async update(id, changes) {
      // Every column written from the merged row: one statement, no caller text in the SQL.
      const [row] = await sql`SELECT * FROM webhook_endpoints WHERE id = ${id} FOR UPDATE`
      if (!row) return null
      const e = { ...toWebhookEndpoint(row), ...changes }
      const [updated] = await sql`UPDATE webhook_endpoints SET url = ${e.url}, events = ${e.events === null ? null : JSON.stringify(e.events)},
          sealed_secret = ${e.sealedSecret}, previous_sealed_secret = ${e.previousSealedSecret},
          previous_secret_until = ${e.previousSecretUntil}, enabled = ${e.enabled}, consecutive_give_ups = ${e.consecutiveGiveUps}
        WHERE id = ${id} RETURNING *`
      return updated ? toWebhookEndpoint(updated) : null
    },
    async delete(id) {
      return (await sql`DELETE FROM webhook_endpoints WHERE id = ${id}`).count > 0
    },
  }
}
