import { pickFairly, type DueDelivery, type EndpointLoad } from '../../core/webhooks/fair-share.ts'
import { consecutiveIds, rowsAtOnce, type Database } from './database.ts'
import type { WebhookDeliveryStore } from '../../core/ports/storage.ts'
import { toWebhookDelivery } from '../shared/rows.ts'
import { num, str } from '../shared/sql-values.ts'

export function createWebhookDeliveryStore(db: Database): WebhookDeliveryStore {
  const insertMany = rowsAtOnce(
    db,
    'INSERT INTO webhook_deliveries (endpoint_id, club, event_id, payload, next_attempt_at, created_at) VALUES',
    '(?, ?, ?, ?, ?, ?)',
  )
  return {
    async enqueueMany(deliveries) {
      return consecutiveIds(insertMany.run(deliveries, (d) => [d.endpointId, d.club, d.eventId, d.payload, d.nextAttemptAt, d.createdAt]))
    },
    async claimDue(now, leaseMs, limit, caps) {
      // Every endpoint's leased count, then, per enabled endpoint with slots free, that many of its due
      // deliveries, earliest first; both read from partial indexes, so a claim costs what it may take,
      // not the backlog. Core chooses among them. Run inside the writer's lock, so two claims never see
      // the same free row.
      const loads: EndpointLoad[] = []
      const due: DueDelivery[] = []
      const endpoints = db.all(
        `SELECT e.id, e.club, e.enabled, (SELECT COUNT(*) FROM webhook_deliveries l WHERE l.endpoint_id = e.id
             AND l.delivered_at IS NULL AND l.given_up_at IS NULL AND l.lease_until IS NOT NULL AND l.lease_until > ?) AS leased
         FROM webhook_endpoints e`,
        now,
      )
      for (const endpoint of endpoints) {
        const endpointId = str(endpoint.id)
        const leased = num(endpoint.leased)
        const free = Math.min(caps.perEndpoint - leased, caps.perClub, limit)
        const rows =
          num(endpoint.enabled) === 1 && free > 0
            ? db.all(
                `SELECT id, next_attempt_at FROM webhook_deliveries
                 WHERE endpoint_id = ? AND delivered_at IS NULL AND given_up_at IS NULL AND next_attempt_at <= ?
                   AND (lease_until IS NULL OR lease_until <= ?)
                 ORDER BY next_attempt_at, id LIMIT ?`,
                endpointId,
                now,
                now,
                free,
              )
            : []
        if (leased === 0 && rows.length === 0) continue
        loads.push({ endpointId, club: str(endpoint.club), leased })
        for (const row of rows) due.push({ id: num(row.id), endpointId, nextAttemptAt: num(row.next_attempt_at) })
      }
      const ids = pickFairly(loads, due, caps, limit)
      if (ids.length === 0) return []
      const byId = new Map(
        db
          .all(
            'UPDATE webhook_deliveries SET lease_until = ?, attempts = attempts + 1 WHERE id IN (SELECT value FROM json_each(?)) RETURNING *',
            now + leaseMs,
            JSON.stringify(ids),
          )
          .map((row) => [num(row.id), toWebhookDelivery(row)]),
      )
      return ids.map((id) => byId.get(id)!)
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
    async listByEndpoint(endpointId, limit, beforeId = null) {
      // Two statements, not `(? IS NULL OR id < ?)`: each keeps a plain range on the (endpoint_id, id) index.
      const rows =
        beforeId === null
          ? db.all('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id DESC LIMIT ?', endpointId, limit)
          : db.all('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND id < ? ORDER BY id DESC LIMIT ?', endpointId, beforeId, limit)
      return rows.map(toWebhookDelivery)
    },
  }
}
