import { earliestDue } from '../../core/webhooks/schedule.ts'
import type { NewWebhookDelivery, WebhookDelivery, WebhookDeliveryStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

const open = (delivery: WebhookDelivery) => delivery.deliveredAt === null && delivery.givenUpAt === null

export function createWebhookDeliveryStore(state: State, journal: Journal): WebhookDeliveryStore {
  function change(id: number, changes: Partial<WebhookDelivery>): void {
    const delivery = state.webhookDeliveries.get(id)
    if (delivery) put(journal, state.webhookDeliveries, id, { ...delivery, ...changes })
  }
  const enqueue = (delivery: NewWebhookDelivery) => {
    const id = ++state.sequences.webhookDelivery
    put(journal, state.webhookDeliveries, id, {
      ...copy(delivery),
      id,
      attempts: 0,
      leaseUntil: null,
      deliveredAt: null,
      givenUpAt: null,
      lastStatus: null,
      lastError: null,
    })
    return id
  }
  return {
    async enqueue(delivery) {
      return enqueue(delivery)
    },
    async enqueueMany(deliveries) {
      return deliveries.map(enqueue)
    },
    async claimDue(now, leaseMs, limit, perEndpoint) {
      const rows = [...state.webhookDeliveries.values()].filter(open).sort(earliestDue)
      const leased = new Map<string, number>()
      for (const row of rows) {
        if (row.leaseUntil !== null && row.leaseUntil > now) leased.set(row.endpointId, (leased.get(row.endpointId) ?? 0) + 1)
      }
      const claimed: WebhookDelivery[] = []
      for (const row of rows) {
        if (claimed.length >= limit) break
        if (row.nextAttemptAt > now || (row.leaseUntil !== null && row.leaseUntil > now)) continue
        if (!state.webhookEndpoints.get(row.endpointId)?.enabled) continue
        const taken = leased.get(row.endpointId) ?? 0
        if (taken >= perEndpoint) continue
        leased.set(row.endpointId, taken + 1)
        const lease = { ...row, leaseUntil: now + leaseMs, attempts: row.attempts + 1 }
        put(journal, state.webhookDeliveries, row.id, lease)
        claimed.push(copy(lease))
      }
      return claimed
    },
    async markDelivered(id, at, status) {
      change(id, { deliveredAt: at, lastStatus: status, lastError: null, leaseUntil: null })
    },
    async markFailed(id, { status, error, nextAttemptAt }) {
      change(id, { lastStatus: status, lastError: error, nextAttemptAt, leaseUntil: null })
    },
    async markGivenUp(id, at, { status, error }) {
      change(id, { givenUpAt: at, lastStatus: status, lastError: error, leaseUntil: null })
    },
    async listByEndpoint(endpointId, limit) {
      return [...state.webhookDeliveries.values()]
        .filter((delivery) => delivery.endpointId === endpointId)
        .sort((a, b) => b.id - a.id)
        .slice(0, limit)
        .map(copy)
    },
    async countPending() {
      return [...state.webhookDeliveries.values()].filter(open).length
    },
  }
}
