import type { IssuanceClaimStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createIssuanceClaimStore(state: State, journal: Journal): IssuanceClaimStore {
  return {
    async record(claim) {
      const earlier = state.claims.get(claim.issuanceId) ?? []
      // A new array, so that the journal's undo puts the old one back untouched.
      put(journal, state.claims, claim.issuanceId, [...earlier, copy(claim)])
      return earlier.length === 0
    },
    async listByIssuance(issuanceId) {
      return (state.claims.get(issuanceId) ?? []).map(copy).sort((a, b) => a.at - b.at)
    },
  }
}
