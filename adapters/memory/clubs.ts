import type { ClubStore } from '../../core/ports/storage.ts'
import { type Journal, put, putNew } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

/** `update` sets only the fields given: an explicit `undefined` leaves the stored value. */
function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>
}

export function createClubStore(state: State, journal: Journal): ClubStore {
  return {
    async insert(club) {
      putNew(journal, state.clubs, club.domain, copy(club), `club ${club.domain} exists`)
    },
    async findByDomain(domain) {
      const club = state.clubs.get(domain)
      return club ? copy(club) : null
    },
    async update(domain, changes) {
      const club = state.clubs.get(domain)
      if (!club) return null
      const updated = { ...club, ...definedOnly(changes) }
      put(journal, state.clubs, domain, updated)
      return copy(updated)
    },
    async count() {
      return state.clubs.size
    },
  }
}
