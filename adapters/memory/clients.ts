import type { ApiKeyStore, ClientStore } from '../../core/ports/storage.ts'
import { type Journal, put, remove, putNew } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createClientStore(state: State, journal: Journal): ClientStore {
  return {
    async insert(client) {
      putNew(journal, state.clients, client.id, copy(client), `client ${client.id} exists`)
    },
    async findById(id) {
      const client = state.clients.get(id)
      return client ? copy(client) : null
    },
    async listByClub(club) {
      return [...state.clients.values()]
        .filter((client) => client.club === club)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(copy)
    },
    async updateSecret(id, secretHash, secretSetAt) {
      const client = state.clients.get(id)
      if (!client) return false
      put(journal, state.clients, id, { ...client, secretHash, secretSetAt })
      return true
    },
    async delete(id) {
      remove(journal, state.clientAuthFailures, id)
      return remove(journal, state.clients, id)
    },
  }
}

export function createApiKeyStore(state: State, journal: Journal): ApiKeyStore {
  return {
    async insert(key) {
      putNew(journal, state.apiKeys, key.id, copy(key), `api key ${key.id} exists`)
    },
    async findById(id) {
      const key = state.apiKeys.get(id)
      return key ? copy(key) : null
    },
    async listByClub(club) {
      return [...state.apiKeys.values()]
        .filter((key) => key.club === club)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(copy)
    },
    async revoke(id, revokedAt) {
      const key = state.apiKeys.get(id)
      if (!key || key.revokedAt !== null) return false
      put(journal, state.apiKeys, id, { ...key, revokedAt })
      return true
    },
  }
}
