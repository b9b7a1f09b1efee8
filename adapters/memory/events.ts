import type { ClubEvent, EventStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy, keysetPage } from './rows.ts'
import type { State } from './state.ts'

export function createEventStore(state: State, journal: Journal): EventStore {
  const append = (event: Omit<ClubEvent, 'id'>) => {
    const id = ++state.sequences.event
    put(journal, state.events, id, { ...copy(event), id })
    return id
  }
  return {
    async append(event) {
      return append(event)
    },
    async appendMany(events) {
      return events.map(append)
    },
    async listBySubject(club, subject, types, limit) {
      return [...state.events.values()]
        .filter((event) => event.club === club && event.subject.type === subject.type && event.subject.id === subject.id && types.includes(event.type))
        .sort((a, b) => b.id - a.id)
        .slice(0, limit)
        .map(copy)
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
