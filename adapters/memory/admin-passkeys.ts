import { StorageConflict } from '../../core/errors.ts'
import type { AdminPasskeyStore, PasskeyChallengeStore } from '../../core/ports/storage.ts'
import { type Journal, put, putNew, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createAdminPasskeyStore(state: State, journal: Journal): AdminPasskeyStore {
  const byCredentialId = (credentialId: string) => [...state.adminPasskeys.values()].find((passkey) => passkey.credentialId === credentialId)
  return {
    async insert(passkey) {
      if (byCredentialId(passkey.credentialId)) throw new StorageConflict('passkey credential id exists')
      putNew(journal, state.adminPasskeys, passkey.id, copy(passkey), `passkey ${passkey.id} exists`)
    },
    async findByCredentialId(credentialId) {
      const passkey = byCredentialId(credentialId)
      return passkey ? copy(passkey) : null
    },
    async listByAdmin(adminId) {
      return [...state.adminPasskeys.values()]
        .filter((passkey) => passkey.adminId === adminId)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(copy)
    },
    async recordUse(id, counter, usedAt) {
      const passkey = state.adminPasskeys.get(id)
      if (!passkey) return false
      put(journal, state.adminPasskeys, id, { ...passkey, counter, lastUsedAt: usedAt })
      return true
    },
    async delete(adminId, id) {
      if (state.adminPasskeys.get(id)?.adminId !== adminId) return false
      return remove(journal, state.adminPasskeys, id)
    },
    async deleteByAdmin(adminId) {
      let deleted = 0
      for (const [id, passkey] of state.adminPasskeys) if (passkey.adminId === adminId && remove(journal, state.adminPasskeys, id)) deleted++
      return deleted
    },
  }
}

export function createPasskeyChallengeStore(state: State, journal: Journal): PasskeyChallengeStore {
  return {
    async insert(challenge, now, keep) {
      for (const [key, stored] of state.passkeyChallenges) if (stored.expiresAt <= now) remove(journal, state.passkeyChallenges, key)
      putNew(journal, state.passkeyChallenges, challenge.challenge, copy(challenge), 'passkey challenge exists')
      if (keep === undefined) return
      const live = [...state.passkeyChallenges.values()]
        .filter((stored) => stored.purpose === challenge.purpose)
        .sort((a, b) => a.expiresAt - b.expiresAt || (a.challenge < b.challenge ? -1 : a.challenge > b.challenge ? 1 : 0))
      for (const stored of live.slice(0, Math.max(0, live.length - keep))) remove(journal, state.passkeyChallenges, stored.challenge)
    },
    async consume(challenge) {
      const stored = state.passkeyChallenges.get(challenge)
      if (!stored) return null
      remove(journal, state.passkeyChallenges, challenge)
      return copy(stored)
    },
  }
}
