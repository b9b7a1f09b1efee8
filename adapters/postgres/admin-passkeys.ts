import type { Database } from './database.ts'
import type { AdminPasskeyStore, PasskeyChallengeStore } from '../../core/ports/storage.ts'
import { toAdminPasskey, toPasskeyChallenge } from '../shared/admin-rows.ts'

export function createAdminPasskeyStore({ sql }: Database): AdminPasskeyStore {
  const columns = sql`id, credential_id, public_key, counter, transports, admin_id, club, name, created_at, last_used_at`
  return {
    async insert(passkey) {
      await sql`INSERT INTO admin_passkeys (id, credential_id, public_key, counter, transports, admin_id, club, name, created_at, last_used_at)
        VALUES (${passkey.id}, ${passkey.credentialId}, ${passkey.publicKey}, ${passkey.counter}, ${JSON.stringify(passkey.transports)},
          ${passkey.adminId}, ${passkey.club}, ${passkey.name}, ${passkey.createdAt}, ${passkey.lastUsedAt})`
    },
    async findByCredentialId(credentialId) {
      const [row] = await sql`SELECT ${columns} FROM admin_passkeys WHERE credential_id = ${credentialId}`
      return row ? toAdminPasskey(row) : null
    },
    async listByAdmin(adminId) {
      return (await sql`SELECT ${columns} FROM admin_passkeys WHERE admin_id = ${adminId} ORDER BY created_at, id COLLATE "C"`).map(toAdminPasskey)
    },
    async recordUse(id, counter, usedAt) {
      return (await sql`UPDATE admin_passkeys SET counter = ${counter}, last_used_at = ${usedAt} WHERE id = ${id}`).count > 0
    },
    async delete(adminId, id) {
      return (await sql`DELETE FROM admin_passkeys WHERE id = ${id} AND admin_id = ${adminId}`).count > 0
    },
    async deleteByAdmin(adminId) {
      return (await sql`DELETE FROM admin_passkeys WHERE admin_id = ${adminId}`).count
    },
  }
}

export function createPasskeyChallengeStore({ sql }: Database): PasskeyChallengeStore {
  return {
    async insert(challenge, now, keep) {
      await sql`DELETE FROM passkey_challenges WHERE expires_at <= ${now}`
      await sql`INSERT INTO passkey_challenges (challenge, purpose, bound_to, expires_at)
        VALUES (${challenge.challenge}, ${challenge.purpose}, ${challenge.boundTo}, ${challenge.expiresAt})`
      if (keep === undefined) return
      const [{ live }] = (await sql`SELECT count(*)::int AS live FROM passkey_challenges WHERE purpose = ${challenge.purpose}`) as unknown as [{ live: number }]
      if (live <= keep) return
      await sql`DELETE FROM passkey_challenges WHERE challenge IN (SELECT challenge FROM passkey_challenges WHERE purpose = ${challenge.purpose}
        ORDER BY expires_at, challenge COLLATE "C" LIMIT ${live - keep})`
    },
    async consume(challenge) {
      // One statement: the row lock makes one of concurrent deletes, on any node, the one that returns it.
      const [row] = await sql`DELETE FROM passkey_challenges WHERE challenge = ${challenge} RETURNING challenge, purpose, bound_to, expires_at`
      return row ? toPasskeyChallenge(row) : null
    },
  }
}
