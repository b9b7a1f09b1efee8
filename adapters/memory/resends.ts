import type { ResendStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createResendStore(state: State, journal: Journal): ResendStore {
  return {
    async insert(request) {
      const id = ++state.sequences.resend
      const stored = { ...copy(request), id }
      put(journal, state.resends, id, stored)
      return copy(stored)
    },
    async listSince(club, issuanceId, since) {
      return [...state.resends.values()]
        .filter((request) => request.club === club && request.issuanceId === issuanceId && request.requestedAt > since)
        .sort((a, b) => a.requestedAt - b.requestedAt || a.id - b.id)
        .map(copy)
    },
    async listMailable(limit) {
      return [...state.resends.values()]
        .filter((request) => request.mailedAt === null && state.credentialByIssuance.has(request.issuanceId))
        .sort((a, b) => a.id - b.id)
        .slice(0, limit)
        .map(copy)
    },
    async markMailed(id, mailedAt) {
      const request = state.resends.get(id)
      if (!request || request.mailedAt !== null) return false
      put(journal, state.resends, id, { ...request, mailedAt })
      return true
    },
  }
}
