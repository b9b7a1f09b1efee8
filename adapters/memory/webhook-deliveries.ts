import { pickFairly, type EndpointLoad } from '../../core/webhooks/fair-share.ts'
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
    async enqueueMany(deliveries) {
      return deliveries.map(enqueue)
    },
    async claimDue(now, leaseMs, limit, caps) {
      const leased = (row: WebhookDelivery) => row.leaseUntil !== null && row.leaseUntil > now
      const loads = new Map<string, EndpointLoad>()
      const due: WebhookDelivery[] = []
      for (const row of state.webhookDeliveries.values()) {
        if (!open(row)) continue
        const isDue = !leased(row) && row.nextAttemptAt <= now && state.webhookEndpoints.get(row.endpointId)?.enabled === true
        if (!isDue && !leased(row)) continue
        const load = loads.get(row.endpointId) ?? { endpointId: row.endpointId, club: row.club, leased: 0 }
        loads.set(row.endpointId, load)
        if (isDue) due.push(row)
        else load.leased++
      }
      return pickFairly([...loads.values()], due, caps, limit).map((id) => {
        const row = state.webhookDeliveries.get(id)!
        const lease = { ...row, leaseUntil: now + leaseMs, attempts: row.attempts + 1 }
        put(journal, state.webhookDeliveries, id, lease)
        return copy(lease)
      })
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
    async listByEndpoint(endpointId, limit, beforeId = null) {
      return [...state.webhookDeliveries.values()]
        .filter((delivery) => delivery.endpointId === endpointId && (beforeId === null || delivery.id < beforeId))
        .sort((a, b) => b.id - a.id)
        .slice(0, limit)
        .map(copy)
    },
  }
}
