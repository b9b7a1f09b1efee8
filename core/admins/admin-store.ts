import type { Admin, AdminLoginFailureWindow } from './admin.ts'

/** Console administrators (docs/admin-console.md). */
export interface AdminStore {
  /** MUST throw `StorageConflict` when the id or the e-mail exists (in any club), also under concurrent inserts. */
  insert(admin: Admin): Promise<void>
  findById(id: string): Promise<Admin | null>
  /** The admin with this (lower-case) e-mail, whatever the club, or `null`. */
  findByEmail(email: string): Promise<Admin | null>
  /** The admin whose outstanding setup token hashes to this, or `null` (expiry is the caller's to check). */
  findBySetupTokenHash(tokenHash: string): Promise<Admin | null>
  /** The club's admins, by e-mail; `[]` when none. */
  listByClub(club: string): Promise<Admin[]>
  /**
   * Replaces the setup token and clears the password (a reset: the old link and the old password stop
   * working). Returns `false`, changing nothing, when there is no such admin.
   */
  resetSetup(id: string, tokenHash: string, expiresAt: number): Promise<boolean>
  /**
   * Sets the password hash and clears the setup token, only while the token is still `tokenHash`: of two
   * concurrent uses of one link at most one returns `true`.
   */
  setPassword(id: string, tokenHash: string, passwordHash: string): Promise<boolean>
  /**
   * Replaces the admin's password hash with `passwordHash` if it is still `currentHash` (a rehash at
   * login under new parameters: a reset or another rehash in between wins). Returns whether it did.
   */
  replacePasswordHash(id: string, currentHash: string, passwordHash: string): Promise<boolean>
  /** Deletes the admin. MUST also delete its sessions, its failure window and its passkeys. Returns `false` when absent. */
  delete(id: string): Promise<boolean>
  /**
   * Counts a failed login of the admin, with the contract of `ClientAuthFailureStore.recordFailure`
   * (fixed windows, atomic: N concurrent calls in one window return N distinct counts). `null`, writing
   * nothing, when there is no such admin.
   */
  recordLoginFailure(id: string, now: number, windowMs: number): Promise<AdminLoginFailureWindow | null>
  /** The admin's window when it has not ended at `now`; `null` when absent or ended. */
  findLoginFailures(id: string, now: number): Promise<AdminLoginFailureWindow | null>
  /** Forgets the admin's failures (a successful login); harmless when none. */
  clearLoginFailures(id: string): Promise<void>
}
