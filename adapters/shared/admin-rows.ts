import type { Admin, AdminLoginFailureWindow } from '../../core/admins/admin.ts'
import type { AdminSession } from '../../core/admins/admin-session.ts'
import { nullableNum, nullableStr, num, str, type SqlRow } from './sql-values.ts'

/** The row mappers of the console's tables, shared by both SQL adapters (beside rows.ts, one per record). */
export const toAdmin = (row: SqlRow): Admin => ({
  id: str(row.id),
  club: str(row.club),
  email: str(row.email),
  name: str(row.name),
  passwordHash: nullableStr(row.password_hash),
  setupTokenHash: nullableStr(row.setup_token_hash),
  setupExpiresAt: nullableNum(row.setup_expires_at),
  createdAt: num(row.created_at),
})

export const toAdminLoginFailureWindow = (row: SqlRow): AdminLoginFailureWindow => ({
  failures: num(row.login_failures),
  endsAt: num(row.login_failures_end_at),
})

export const toAdminSession = (row: SqlRow): AdminSession => ({
  idHash: str(row.id_hash),
  adminId: str(row.admin_id),
  club: str(row.club),
  createdAt: num(row.created_at),
  lastSeenAt: num(row.last_seen_at),
})
