import type { WebhookEndpointStore } from '../../core/ports/storage.ts'
import { type Journal, put, putNew, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createWebhookEndpointStore(state: State, journal: Journal): WebhookEndpointStore {
  return {
    async insert(endpoint) {
      putNew(journal, state.webhookEndpoints, endpoint.id, copy(endpoint), `webhook endpoint ${endpoint.id} exists`)
    },
    async findById(id) {
      const endpoint = state.webhookEndpoints.get(id)
      return endpoint ? copy(endpoint) : null
    },
    async listByClub(club) {
      return [...state.webhookEndpoints.values()]
        .filter((endpoint) => endpoint.club === club)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(copy)
    },
    async update(id, changes) {
      const endpoint = state.webhookEndpoints.get(id)
      if (!endpoint) return null
      const updated = { ...endpoint, ...copy(changes) }
      put(journal, state.webhookEndpoints, id, updated)
      return copy(updated)
    },
    async delete(id) {
      if (!remove(journal, state.webhookEndpoints, id)) return false
      for (const delivery of [...state.webhookDeliveries.values()]) {
        if (delivery.endpointId === id) remove(journal, state.webhookDeliveries, delivery.id)
      }
      return true
    },
  }
}
