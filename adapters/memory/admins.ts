import { StorageConflict } from '../../core/errors.ts'
import type { AdminLoginFailureWindow, AdminSessionStore, AdminStore } from '../../core/ports/storage.ts'
import { type Journal, put, putNew, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createAdminStore(state: State, journal: Journal): AdminStore {
  const byEmail = (email: string) => [...state.admins.values()].find((admin) => admin.email === email)
  return {
    async insert(admin) {
      if (byEmail(admin.email)) throw new StorageConflict(`admin ${admin.email} exists`)
      putNew(journal, state.admins, admin.id, copy(admin), `admin ${admin.id} exists`)
    },
    async findById(id) {
      const admin = state.admins.get(id)
      return admin ? copy(admin) : null
    },
    async findByEmail(email) {
      const admin = byEmail(email)
      return admin ? copy(admin) : null
    },
    async findBySetupTokenHash(tokenHash) {
      const admin = [...state.admins.values()].find((candidate) => candidate.setupTokenHash === tokenHash)
      return admin ? copy(admin) : null
    },
    async listByClub(club) {
      return [...state.admins.values()]
        .filter((admin) => admin.club === club)
        .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0))
        .map(copy)
    },
    async resetSetup(id, tokenHash, expiresAt) {
      const admin = state.admins.get(id)
      if (!admin) return false
      put(journal, state.admins, id, { ...admin, setupTokenHash: tokenHash, setupExpiresAt: expiresAt, passwordHash: null })
      return true
    },
    async setPassword(id, tokenHash, passwordHash) {
      const admin = state.admins.get(id)
      if (!admin || admin.setupTokenHash !== tokenHash) return false
      put(journal, state.admins, id, { ...admin, passwordHash, setupTokenHash: null, setupExpiresAt: null })
      return true
    },
    async replacePasswordHash(id, currentHash, passwordHash) {
      const admin = state.admins.get(id)
      if (!admin || admin.passwordHash !== currentHash) return false
      put(journal, state.admins, id, { ...admin, passwordHash })
      return true
    },
    async delete(id) {
      for (const [idHash, session] of state.adminSessions) if (session.adminId === id) remove(journal, state.adminSessions, idHash)
      remove(journal, state.adminLoginFailures, id)
      for (const [passkeyId, passkey] of state.adminPasskeys) if (passkey.adminId === id) remove(journal, state.adminPasskeys, passkeyId)
      return remove(journal, state.admins, id)
    },
    async recordLoginFailure(id, now, windowMs) {
      if (!state.admins.has(id)) return null
      const current = state.adminLoginFailures.get(id)
      const window: AdminLoginFailureWindow =
        current && current.endsAt > now ? { ...current, failures: current.failures + 1 } : { failures: 1, endsAt: now + windowMs }
      put(journal, state.adminLoginFailures, id, window)
      return copy(window)
    },
    async findLoginFailures(id, now) {
      const window = state.adminLoginFailures.get(id)
      return window && window.endsAt > now ? copy(window) : null
    },
    async clearLoginFailures(id) {
      remove(journal, state.adminLoginFailures, id)
    },
  }
}

export function createAdminSessionStore(state: State, journal: Journal): AdminSessionStore {
  return {
    async insert(session) {
      putNew(journal, state.adminSessions, session.idHash, copy(session), 'admin session exists')
    },
    async findByIdHash(idHash) {
      const session = state.adminSessions.get(idHash)
      return session ? copy(session) : null
    },
    async touch(idHash, lastSeenAt) {
      const session = state.adminSessions.get(idHash)
      if (!session) return false
      put(journal, state.adminSessions, idHash, { ...session, lastSeenAt })
      return true
    },
    async delete(idHash) {
      return remove(journal, state.adminSessions, idHash)
    },
    async deleteByAdmin(adminId) {
      let deleted = 0
      for (const [idHash, session] of state.adminSessions) if (session.adminId === adminId && remove(journal, state.adminSessions, idHash)) deleted++
      return deleted
    },
    async purgeEnded(idleBefore, createdBefore) {
      let purged = 0
      for (const [idHash, session] of state.adminSessions) {
        if ((session.lastSeenAt < idleBefore || session.createdAt < createdBefore) && remove(journal, state.adminSessions, idHash)) purged++
      }
      return purged
    },
  }
}
