import type { EventStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy, keysetPage } from './rows.ts'
import type { State } from './state.ts'

export function createEventStore(state: State, journal: Journal): EventStore {
  return {
    async append(event) {
      const id = ++state.sequences.event
      put(journal, state.events, id, { ...copy(event), id })
      return id
    },
    async list(club, { limit, beforeId }) {
      return keysetPage(
        [...state.events.values()].filter((event) => event.club === club),
        beforeId,
        limit,
      )
    },
  }
}
