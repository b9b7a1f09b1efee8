import type { StatusList, StatusListStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createStatusListStore(state: State, journal: Journal): StatusListStore {
  return {
    async insert(list) {
      const stored: StatusList = { ...copy(list), id: ++state.sequences.statusList, allocated: 0 }
      put(journal, state.statusLists, stored.id, stored)
      return copy(stored)
    },
    async current(club, purpose) {
      let newest: StatusList | null = null
      for (const list of state.statusLists.values()) {
        if (list.club === club && list.purpose === purpose && (newest === null || list.id > newest.id)) newest = list
      }
      return newest ? copy(newest) : null
    },
    async listByClub(club) {
      return [...state.statusLists.values()]
        .filter((list) => list.club === club)
        .sort((a, b) => a.id - b.id)
        .map(copy)
    },
    async takeSlots(listId, count) {
      const list = state.statusLists.get(listId)
      if (!list || list.allocated >= list.size) return null
      const taken = Math.min(count, list.size - list.allocated)
      put(journal, state.statusLists, listId, { ...list, allocated: list.allocated + taken })
      return { first: list.allocated, count: taken }
    },
  }
}
