import { chunksOf, idsInOrder, type Database } from './database.ts'
import type { WebhookDeliveryStore } from '../../core/ports/storage.ts'
import { pickFairly, type DueDelivery, type EndpointLoad } from '../../core/webhooks/fair-share.ts'
import { toWebhookDelivery } from '../shared/rows.ts'
import { num } from '../shared/sql-values.ts'

export function createWebhookDeliveryStore({ sql }: Database): WebhookDeliveryStore {
  return {
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
    async claimDue(now, leaseMs, limit, caps) {
      // Claims run in units under the unit lock (core does not pass `concurrent`), so the leased counts
      // cannot change between this read and the update; SKIP LOCKED is not needed. Every endpoint's leased
      // count, and per enabled endpoint with slots free that many of its due deliveries, earliest first,
      // from two partial indexes: a claim costs what it may take, not the backlog. Core chooses among them.
      const rows = await sql`WITH loads AS (
          SELECT e.id, e.club, e.enabled, (SELECT COUNT(*) FROM webhook_deliveries l WHERE l.endpoint_id = e.id
            AND l.delivered_at IS NULL AND l.given_up_at IS NULL AND l.lease_until IS NOT NULL AND l.lease_until > ${now})::int AS leased
          FROM webhook_endpoints e)
        SELECT n.id AS endpoint_id, n.club, n.leased, d.id, d.next_attempt_at FROM loads n LEFT JOIN LATERAL (
            SELECT x.id, x.next_attempt_at FROM webhook_deliveries x
            WHERE n.enabled AND x.endpoint_id = n.id AND x.delivered_at IS NULL AND x.given_up_at IS NULL
              AND x.next_attempt_at <= ${now} AND (x.lease_until IS NULL OR x.lease_until <= ${now})
            ORDER BY x.next_attempt_at, x.id
            LIMIT GREATEST(0, LEAST(${caps.perEndpoint}::int - n.leased, ${caps.perClub}::int, ${limit}::int))
          ) d ON true
        WHERE n.leased > 0 OR d.id IS NOT NULL`
      const loads = new Map<string, EndpointLoad>()
      const due: DueDelivery[] = []
      for (const row of rows) {
        const endpointId = String(row.endpoint_id)
        loads.set(endpointId, { endpointId, club: String(row.club), leased: num(row.leased) })
        if (row.id !== null) due.push({ id: num(row.id), endpointId, nextAttemptAt: num(row.next_attempt_at) })
      }
      const ids = pickFairly([...loads.values()], due, caps, limit)
      if (ids.length === 0) return []
      const leased = await sql`UPDATE webhook_deliveries SET lease_until = ${now + leaseMs}, attempts = attempts + 1
        WHERE id = ANY(${ids}::int8[]) RETURNING *`
      const byId = new Map(leased.map((row) => [num(row.id), toWebhookDelivery(row)]))
      return ids.map((id) => byId.get(id)!)
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
    async listByEndpoint(endpointId, limit, beforeId = null) {
      const below = beforeId === null ? sql`` : sql`AND id < ${beforeId}`
      return (await sql`SELECT * FROM webhook_deliveries WHERE endpoint_id = ${endpointId} ${below} ORDER BY id DESC LIMIT ${limit}`).map(toWebhookDelivery)
    },
  }
}
