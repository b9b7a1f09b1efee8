import type { Database } from './database.ts'
import type { AdminSessionStore, AdminStore } from '../../core/ports/storage.ts'
import { toAdmin, toAdminLoginFailureWindow, toAdminSession } from '../shared/admin-rows.ts'

const ADMIN_COLUMNS = 'id, club, email, name, password_hash, setup_token_hash, setup_expires_at, created_at'

export function createAdminStore(db: Database): AdminStore {
  const one = (where: string, value: string) => {
    const row = db.get(`SELECT ${ADMIN_COLUMNS} FROM admins WHERE ${where} = ?`, value)
    return row ? toAdmin(row) : null
  }
  return {
    async insert(admin) {
      db.run(
        `INSERT INTO admins (${ADMIN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        admin.id,
        admin.club,
        admin.email,
        admin.name,
        admin.passwordHash,
        admin.setupTokenHash,
        admin.setupExpiresAt,
        admin.createdAt,
      )
    },
    findById: async (id) => one('id', id),
    findByEmail: async (email) => one('email', email),
    findBySetupTokenHash: async (tokenHash) => one('setup_token_hash', tokenHash),
    async listByClub(club) {
      return db.all(`SELECT ${ADMIN_COLUMNS} FROM admins WHERE club = ? ORDER BY email`, club).map(toAdmin)
    },
    async resetSetup(id, tokenHash, expiresAt) {
      return db.run('UPDATE admins SET setup_token_hash = ?, setup_expires_at = ?, password_hash = NULL WHERE id = ?', tokenHash, expiresAt, id) > 0
    },
    async setPassword(id, tokenHash, passwordHash) {
      const changed = db.run(
        'UPDATE admins SET password_hash = ?, setup_token_hash = NULL, setup_expires_at = NULL WHERE id = ? AND setup_token_hash = ?',
        passwordHash,
        id,
        tokenHash,
      )
      return changed > 0
    },
    async replacePasswordHash(id, currentHash, passwordHash) {
      return db.run('UPDATE admins SET password_hash = ? WHERE id = ? AND password_hash = ?', passwordHash, id, currentHash) > 0
    },
    async delete(id) {
      // The sessions go by the foreign key's cascade.
      return db.run('DELETE FROM admins WHERE id = ?', id) > 0
    },
    async recordLoginFailure(id, now, windowMs) {
      // One statement, so that concurrent failures from several connections all count.
      const row = db.get(
        `UPDATE admins SET
           login_failures = CASE WHEN login_failures_end_at <= ? THEN 1 ELSE login_failures + 1 END,
           login_failures_end_at = CASE WHEN login_failures_end_at <= ? THEN ? ELSE login_failures_end_at END
         WHERE id = ? RETURNING login_failures, login_failures_end_at`,
        now,
        now,
        now + windowMs,
        id,
      )
      return row ? toAdminLoginFailureWindow(row) : null
    },
    async findLoginFailures(id, now) {
      const row = db.get('SELECT login_failures, login_failures_end_at FROM admins WHERE id = ? AND login_failures_end_at > ?', id, now)
      return row ? toAdminLoginFailureWindow(row) : null
    },
    async clearLoginFailures(id) {
      db.run('UPDATE admins SET login_failures = 0, login_failures_end_at = 0 WHERE id = ? AND login_failures_end_at <> 0', id)
    },
  }
}

export function createAdminSessionStore(db: Database): AdminSessionStore {
  return {
    async insert(session) {
      db.run(
        'INSERT INTO admin_sessions (id_hash, admin_id, club, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
        session.idHash,
        session.adminId,
        session.club,
        session.createdAt,
        session.lastSeenAt,
      )
    },
    async findByIdHash(idHash) {
      const row = db.get('SELECT * FROM admin_sessions WHERE id_hash = ?', idHash)
      return row ? toAdminSession(row) : null
    },
    async touch(idHash, lastSeenAt) {
      return db.run('UPDATE admin_sessions SET last_seen_at = ? WHERE id_hash = ?', lastSeenAt, idHash) > 0
    },
    async delete(idHash) {
      return db.run('DELETE FROM admin_sessions WHERE id_hash = ?', idHash) > 0
    },
    async deleteByAdmin(adminId) {
      return db.run('DELETE FROM admin_sessions WHERE admin_id = ?', adminId)
    },
    async purgeEnded(idleBefore, createdBefore) {
      return db.run('DELETE FROM admin_sessions WHERE last_seen_at < ? OR created_at < ?', idleBefore, createdBefore)
    },
  }
}
