import type { AdminPasskey } from './passkey.ts'

/** The console admins' passkeys (WebAuthn credentials). */
export interface AdminPasskeyStore {
  /** MUST throw `StorageConflict` when the id or the credential id exists (for any admin), also under concurrent inserts. */
  insert(passkey: AdminPasskey): Promise<void>
  /** The passkey of this credential id, whatever its admin, or `null`. */
  findByCredentialId(credentialId: string): Promise<AdminPasskey | null>
  /** The admin's passkeys, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByAdmin(adminId: string): Promise<AdminPasskey[]>
  /** Records a login with the passkey: its new counter and `lastUsedAt`. `false` when it is gone. */
  recordUse(id: string, counter: number, usedAt: number): Promise<boolean>
  /** Deletes the admin's passkey of this id; `false`, changing nothing, when that admin has none of this id. */
  delete(adminId: string, id: string): Promise<boolean>
  /** Deletes every passkey of the admin (a reset); returns how many. */
  deleteByAdmin(adminId: string): Promise<number>
}
