import type { Database } from './database.ts'
import type { AdminPasskeyStore, PasskeyChallengeStore } from '../../core/ports/storage.ts'
import { ADMIN_PASSKEY_COLUMNS, adminPasskeyValues, toAdminPasskey, toPasskeyChallenge } from '../shared/admin-rows.ts'

export function createAdminPasskeyStore(db: Database): AdminPasskeyStore {
  return {
    async insert(passkey) {
      db.run(`INSERT INTO admin_passkeys (${ADMIN_PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ...adminPasskeyValues(passkey))
    },
    async findByCredentialId(credentialId) {
      const row = db.get(`SELECT ${ADMIN_PASSKEY_COLUMNS} FROM admin_passkeys WHERE credential_id = ?`, credentialId)
      return row ? toAdminPasskey(row) : null
    },
    async listByAdmin(adminId) {
      return db.all(`SELECT ${ADMIN_PASSKEY_COLUMNS} FROM admin_passkeys WHERE admin_id = ? ORDER BY created_at, id`, adminId).map(toAdminPasskey)
    },
    async recordUse(id, counter, usedAt) {
      return db.run('UPDATE admin_passkeys SET counter = ?, last_used_at = ? WHERE id = ?', counter, usedAt, id) > 0
    },
    async delete(adminId, id) {
      return db.run('DELETE FROM admin_passkeys WHERE id = ? AND admin_id = ?', id, adminId) > 0
    },
    async deleteByAdmin(adminId) {
      return db.run('DELETE FROM admin_passkeys WHERE admin_id = ?', adminId)
    },
  }
}

export function createPasskeyChallengeStore(db: Database): PasskeyChallengeStore {
  return {
    async insert(challenge, now, keep) {
      db.run('DELETE FROM passkey_challenges WHERE expires_at <= ?', now)
      db.run(
        'INSERT INTO passkey_challenges (challenge, purpose, bound_to, expires_at) VALUES (?, ?, ?, ?)',
        challenge.challenge,
        challenge.purpose,
        challenge.boundTo,
        challenge.expiresAt,
      )
      if (keep === undefined) return
      const { live } = db.get('SELECT count(*) AS live FROM passkey_challenges WHERE purpose = ?', challenge.purpose) as { live: number }
      if (live <= keep) return
      db.run(
        'DELETE FROM passkey_challenges WHERE challenge IN (SELECT challenge FROM passkey_challenges WHERE purpose = ? ORDER BY expires_at, challenge LIMIT ?)',
        challenge.purpose,
        live - keep,
      )
    },
    async consume(challenge) {
      const row = db.get('DELETE FROM passkey_challenges WHERE challenge = ? RETURNING challenge, purpose, bound_to, expires_at', challenge)
      return row ? toPasskeyChallenge(row) : null
    },
  }
}
