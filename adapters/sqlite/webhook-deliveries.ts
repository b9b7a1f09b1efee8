import { nullableNum, nullableStr, num, str, type Database } from './database.ts'
import type { WebhookDelivery, WebhookDeliveryStore } from '../../core/ports/storage.ts'
import type { SqliteRow } from './driver.ts'

export const toDelivery = (row: SqliteRow): WebhookDelivery => ({
  id: num(row.id),
  endpointId: str(row.endpoint_id),
  club: str(row.club),
  eventId: num(row.event_id),
  payload: str(row.payload),
  attempts: num(row.attempts),
  nextAttemptAt: num(row.next_attempt_at),
  leaseUntil: nullableNum(row.lease_until),
  deliveredAt: nullableNum(row.delivered_at),
  givenUpAt: nullableNum(row.given_up_at),
  lastStatus: nullableNum(row.last_status),
  lastError: nullableStr(row.last_error),
  createdAt: num(row.created_at),
})

export function createWebhookDeliveryStore(db: Database): WebhookDeliveryStore {
  return {
    async enqueue(d) {
      const row = db.get(
        `INSERT INTO webhook_deliveries (endpoint_id, club, event_id, payload, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
        d.endpointId,
        d.club,
        d.eventId,
        d.payload,
        d.nextAttemptAt,
        d.createdAt,
      )
      return num(row!.id)
    },
    async claimDue(now, leaseMs, limit, perEndpoint) {
      // Rank the due deliveries of each endpoint and take those that fit beside its leased ones. One
      // statement inside the writer's lock, so two claims never see the same free row.
      // Leased counts once per endpoint (a CTE, not a subquery per row: that was quadratic in the backlog).
      return db
        .all(
          `WITH leased AS (
             SELECT endpoint_id, COUNT(*) AS n FROM webhook_deliveries
             WHERE delivered_at IS NULL AND given_up_at IS NULL AND lease_until > ? GROUP BY endpoint_id),
           due AS (
             SELECT d.id, d.endpoint_id, ROW_NUMBER() OVER (PARTITION BY d.endpoint_id ORDER BY d.id) AS n
             FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled = 1
             WHERE d.delivered_at IS NULL AND d.given_up_at IS NULL AND d.next_attempt_at <= ?
               AND (d.lease_until IS NULL OR d.lease_until <= ?))
           UPDATE webhook_deliveries SET lease_until = ?, attempts = attempts + 1
           WHERE id IN (
             SELECT due.id FROM due LEFT JOIN leased ON leased.endpoint_id = due.endpoint_id
             WHERE due.n <= ? - COALESCE(leased.n, 0) ORDER BY due.id LIMIT ?)
           RETURNING *`,
          now,
          now,
          now,
          now + leaseMs,
          perEndpoint,
          limit,
        )
        .map(toDelivery)
        .sort((a, b) => a.id - b.id)
    },
    async markDelivered(id, at, status) {
      db.run('UPDATE webhook_deliveries SET delivered_at = ?, last_status = ?, last_error = NULL, lease_until = NULL WHERE id = ?', at, status, id)
    },
    async markFailed(id, { status, error, nextAttemptAt }) {
      db.run(
        'UPDATE webhook_deliveries SET last_status = ?, last_error = ?, next_attempt_at = ?, lease_until = NULL WHERE id = ?',
        status,
        error,
        nextAttemptAt,
        id,
      )
    },
    async markGivenUp(id, at, { status, error }) {
      db.run('UPDATE webhook_deliveries SET given_up_at = ?, last_status = ?, last_error = ?, lease_until = NULL WHERE id = ?', at, status, error, id)
    },
    async listByEndpoint(endpointId, limit) {
      return db.all('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id DESC LIMIT ?', endpointId, limit).map(toDelivery)
    },
    async countPending() {
      return num(db.get('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE delivered_at IS NULL AND given_up_at IS NULL')!.n)
    },
  }
}
