import type { ClientAuthFailureStore, ClientAuthFailureWindow } from '../../core/ports/storage.ts'
import { type Journal, put, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createClientAuthFailureStore(state: State, journal: Journal): ClientAuthFailureStore {
  return {
    async recordFailure(clientId, now, windowMs) {
      if (!state.clients.has(clientId)) return null
      const current = state.clientAuthFailures.get(clientId)
      const window: ClientAuthFailureWindow =
        current && current.endsAt > now ? { ...current, failures: current.failures + 1 } : { clientId, failures: 1, endsAt: now + windowMs }
      put(journal, state.clientAuthFailures, clientId, window)
      return copy(window)
    },
    async find(clientId, now) {
      const window = state.clientAuthFailures.get(clientId)
      return window && window.endsAt > now ? copy(window) : null
    },
    async clear(clientId) {
      remove(journal, state.clientAuthFailures, clientId)
    },
    async purgeEnded(now) {
      let purged = 0
      for (const [clientId, window] of state.clientAuthFailures) {
        if (window.endsAt <= now && remove(journal, state.clientAuthFailures, clientId)) purged++
      }
      return purged
    },
  }
}
