import { chunksOf, idsInOrder, num, type Database } from './database.ts'
import { toWebhookDelivery } from '../shared/rows.ts'
import type { WebhookDeliveryStore } from '../../core/ports/storage.ts'
import { earliestDue } from '../../core/webhooks/schedule.ts'

export function createWebhookDeliveryStore({ sql }: Database): WebhookDeliveryStore {
  return {
    async enqueue(d) {
      const [row] = await sql`INSERT INTO webhook_deliveries (endpoint_id, club, event_id, payload, next_attempt_at, created_at)
        VALUES (${d.endpointId}, ${d.club}, ${d.eventId}, ${d.payload}, ${d.nextAttemptAt}, ${d.createdAt}) RETURNING id`
      return num(row!.id)
    },
    async enqueueMany(deliveries) {
      const ids: number[] = []
      for (const chunk of chunksOf(deliveries)) {
        const rows = chunk.map((d) => ({
          endpoint_id: d.endpointId,
          club: d.club,
          event_id: d.eventId,
          payload: d.payload,
          next_attempt_at: d.nextAttemptAt,
          created_at: d.createdAt,
        }))
        ids.push(
          ...idsInOrder(
            await sql`INSERT INTO webhook_deliveries ${sql(rows, 'endpoint_id', 'club', 'event_id', 'payload', 'next_attempt_at', 'created_at')} RETURNING id`,
          ),
        )
      }
      return ids
    },
    async claimDue(now, leaseMs, limit, perEndpoint) {
      // Claims run in units under the unit lock (core does not pass `concurrent`), so the count of
      // leased deliveries per endpoint cannot change under this statement; SKIP LOCKED is not needed.
      // Per enabled endpoint, its free slots' worth of due deliveries, earliest first, from two partial
      // indexes: a claim costs what it takes, not the backlog.
      const rows = await sql`WITH picked AS (
          SELECT d.id FROM webhook_endpoints e CROSS JOIN LATERAL (
            SELECT x.id, x.next_attempt_at FROM webhook_deliveries x
            WHERE x.endpoint_id = e.id AND x.delivered_at IS NULL AND x.given_up_at IS NULL
              AND x.next_attempt_at <= ${now} AND (x.lease_until IS NULL OR x.lease_until <= ${now})
            ORDER BY x.next_attempt_at, x.id
            LIMIT GREATEST(0, ${perEndpoint}::int - (
              SELECT COUNT(*) FROM webhook_deliveries l WHERE l.endpoint_id = e.id AND l.delivered_at IS NULL
                AND l.given_up_at IS NULL AND l.lease_until IS NOT NULL AND l.lease_until > ${now}))
          ) d
          WHERE e.enabled
          ORDER BY d.next_attempt_at, d.id LIMIT ${limit})
        UPDATE webhook_deliveries SET lease_until = ${now + leaseMs}, attempts = attempts + 1
        WHERE id IN (SELECT id FROM picked)
        RETURNING *`
      return rows.map(toWebhookDelivery).sort(earliestDue)
    },
    async markDelivered(id, at, status) {
      await sql`UPDATE webhook_deliveries SET delivered_at = ${at}, last_status = ${status}, last_error = NULL, lease_until = NULL WHERE id = ${id}`
    },
    async markFailed(id, { status, error, nextAttemptAt }) {
      await sql`UPDATE webhook_deliveries SET last_status = ${status}, last_error = ${error}, next_attempt_at = ${nextAttemptAt}, lease_until = NULL
        WHERE id = ${id}`
    },
    async markGivenUp(id, at, { status, error }) {
      await sql`UPDATE webhook_deliveries SET given_up_at = ${at}, last_status = ${status}, last_error = ${error}, lease_until = NULL WHERE id = ${id}`
    },
    async listByEndpoint(endpointId, limit) {
      return (await sql`SELECT * FROM webhook_deliveries WHERE endpoint_id = ${endpointId} ORDER BY id DESC LIMIT ${limit}`).map(toWebhookDelivery)
    },
    async countPending() {
      const [row] = await sql`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE delivered_at IS NULL AND given_up_at IS NULL`
      return num(row!.n)
    },
  }
}
