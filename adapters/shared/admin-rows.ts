import type { Admin, AdminLoginFailureWindow } from '../../core/admins/admin.ts'
import type { AdminSession } from '../../core/admins/admin-session.ts'
import type { AdminPasskey, PasskeyChallenge, PasskeyPurpose } from '../../core/admins/passkey.ts'
import { json, nullableNum, nullableStr, num, str, type SqlRow } from './sql-values.ts'

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

/** The passkey columns in the order both adapters insert them; `transports` is a JSON array. */
export const ADMIN_PASSKEY_COLUMNS = 'id, credential_id, public_key, counter, transports, admin_id, club, name, created_at, last_used_at'

export const adminPasskeyValues = (passkey: AdminPasskey) => [
  passkey.id,
  passkey.credentialId,
  passkey.publicKey,
  passkey.counter,
  JSON.stringify(passkey.transports),
  passkey.adminId,
  passkey.club,
  passkey.name,
  passkey.createdAt,
  passkey.lastUsedAt,
]

export const toAdminPasskey = (row: SqlRow): AdminPasskey => ({
  id: str(row.id),
  credentialId: str(row.credential_id),
  publicKey: str(row.public_key),
  counter: num(row.counter),
  transports: json<string[]>(row.transports),
  adminId: str(row.admin_id),
  club: str(row.club),
  name: str(row.name),
  createdAt: num(row.created_at),
  lastUsedAt: nullableNum(row.last_used_at),
})

export const toPasskeyChallenge = (row: SqlRow): PasskeyChallenge => ({
  challenge: str(row.challenge),
  purpose: str(row.purpose) as PasskeyPurpose,
  boundTo: str(row.bound_to),
  expiresAt: num(row.expires_at),
})
