import { StorageConflict } from '../../core/errors.ts'
import type { KeyRecordStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createKeyRecordStore(state: State, journal: Journal): KeyRecordStore {
  return {
    async insert(key) {
      if (state.keys.has(key.kid)) throw new StorageConflict(`key ${key.kid} exists`)
      if (key.active && [...state.keys.values()].some((k) => k.owner === key.owner && k.active)) {
        throw new StorageConflict(`owner ${key.owner} has an active key`)
      }
      put(journal, state.keys, key.kid, copy(key))
    },
    async findActive(owner) {
      const key = [...state.keys.values()].find((k) => k.owner === owner && k.active)
      return key ? copy(key) : null
    },
    async findByKid(kid) {
      const key = state.keys.get(kid)
      return key ? copy(key) : null
    },
    async listByOwner(owner) {
      return [...state.keys.values()]
        .filter((k) => k.owner === owner)
        .sort((a, b) => a.createdAt - b.createdAt || (a.kid < b.kid ? -1 : 1))
        .map(copy)
    },
    async listActive() {
      return [...state.keys.values()]
        .filter((k) => k.active)
        .sort((a, b) => (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0))
        .map(copy)
    },
    async deactivateAll(owner) {
      for (const key of state.keys.values()) {
        if (key.owner === owner && key.active) put(journal, state.keys, key.kid, { ...key, active: false })
      }
    },
  }
}
