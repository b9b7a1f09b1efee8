import type { Database } from './database.ts'
import type { AdminSessionStore, AdminStore } from '../../core/ports/storage.ts'
import { toAdmin, toAdminLoginFailureWindow, toAdminSession } from '../shared/admin-rows.ts'

export function createAdminStore({ sql }: Database): AdminStore {
  const first = <T>(rows: T[]) => rows[0] ?? null
  const columns = sql`id, club, email, name, password_hash, setup_token_hash, setup_expires_at, created_at`
  return {
    async insert(admin) {
      await sql`INSERT INTO admins (id, club, email, name, password_hash, setup_token_hash, setup_expires_at, created_at)
        VALUES (${admin.id}, ${admin.club}, ${admin.email}, ${admin.name}, ${admin.passwordHash}, ${admin.setupTokenHash},
          ${admin.setupExpiresAt}, ${admin.createdAt})`
    },
    async findById(id) {
      const row = first(await sql`SELECT ${columns} FROM admins WHERE id = ${id}`)
      return row ? toAdmin(row) : null
    },
    async findByEmail(email) {
      const row = first(await sql`SELECT ${columns} FROM admins WHERE email = ${email}`)
      return row ? toAdmin(row) : null
    },
    async findBySetupTokenHash(tokenHash) {
      const row = first(await sql`SELECT ${columns} FROM admins WHERE setup_token_hash = ${tokenHash}`)
      return row ? toAdmin(row) : null
    },
    async listByClub(club) {
      return (await sql`SELECT ${columns} FROM admins WHERE club = ${club} ORDER BY email COLLATE "C"`).map(toAdmin)
    },
    async resetSetup(id, tokenHash, expiresAt) {
      const result = await sql`UPDATE admins SET setup_token_hash = ${tokenHash}, setup_expires_at = ${expiresAt}, password_hash = NULL WHERE id = ${id}`
      return result.count > 0
    },
    async setPassword(id, tokenHash, passwordHash) {
      const result = await sql`UPDATE admins SET password_hash = ${passwordHash}, setup_token_hash = NULL, setup_expires_at = NULL
        WHERE id = ${id} AND setup_token_hash = ${tokenHash}`
      return result.count > 0
    },
    async replacePasswordHash(id, currentHash, passwordHash) {
      return (await sql`UPDATE admins SET password_hash = ${passwordHash} WHERE id = ${id} AND password_hash = ${currentHash}`).count > 0
    },
    async delete(id) {
      // The sessions go by the foreign key's cascade.
      return (await sql`DELETE FROM admins WHERE id = ${id}`).count > 0
    },
    async recordLoginFailure(id, now, windowMs) {
      // One statement: the row lock of the update orders concurrent failures from every node.
      const row = first(
        await sql`UPDATE admins SET
          login_failures = CASE WHEN login_failures_end_at <= ${now} THEN 1 ELSE login_failures + 1 END,
          login_failures_end_at = CASE WHEN login_failures_end_at <= ${now} THEN ${now + windowMs} ELSE login_failures_end_at END
        WHERE id = ${id} RETURNING login_failures, login_failures_end_at`,
      )
      return row ? toAdminLoginFailureWindow(row) : null
    },
    async findLoginFailures(id, now) {
      const row = first(await sql`SELECT login_failures, login_failures_end_at FROM admins WHERE id = ${id} AND login_failures_end_at > ${now}`)
      return row ? toAdminLoginFailureWindow(row) : null
    },
    async clearLoginFailures(id) {
      await sql`UPDATE admins SET login_failures = 0, login_failures_end_at = 0 WHERE id = ${id} AND login_failures_end_at <> 0`
    },
  }
}

export function createAdminSessionStore({ sql }: Database): AdminSessionStore {
  return {
    async insert(session) {
      await sql`INSERT INTO admin_sessions (id_hash, admin_id, club, created_at, last_seen_at)
        VALUES (${session.idHash}, ${session.adminId}, ${session.club}, ${session.createdAt}, ${session.lastSeenAt})`
    },
    async findByIdHash(idHash) {
      const [row] = await sql`SELECT * FROM admin_sessions WHERE id_hash = ${idHash}`
      return row ? toAdminSession(row) : null
    },
    async touch(idHash, lastSeenAt) {
      return (await sql`UPDATE admin_sessions SET last_seen_at = ${lastSeenAt} WHERE id_hash = ${idHash}`).count > 0
    },
    async delete(idHash) {
      return (await sql`DELETE FROM admin_sessions WHERE id_hash = ${idHash}`).count > 0
    },
    async deleteByAdmin(adminId) {
      return (await sql`DELETE FROM admin_sessions WHERE admin_id = ${adminId}`).count
    },
    async purgeEnded(idleBefore, createdBefore) {
      return (await sql`DELETE FROM admin_sessions WHERE last_seen_at < ${idleBefore} OR created_at < ${createdBefore}`).count
    },
  }
}
