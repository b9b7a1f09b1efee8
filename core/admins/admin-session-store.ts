import type { AdminSession } from './admin-session.ts'

/** Console sessions, shared by every node on the storage. */
export interface AdminSessionStore {
  /** MUST throw `StorageConflict` when the id hash exists. */
  insert(session: AdminSession): Promise<void>
  findByIdHash(idHash: string): Promise<AdminSession | null>
  /** Sets `lastSeenAt`; `false` when the session is gone. */
  touch(idHash: string, lastSeenAt: number): Promise<boolean>
  /** Ends one session; `false` when it was gone already. */
  delete(idHash: string): Promise<boolean>
  /** Ends every session of the admin; returns how many. */
  deleteByAdmin(adminId: string): Promise<number>
  /** Deletes every session idle since before `idleBefore` or created before `createdBefore`; returns how many. */
  purgeEnded(idleBefore: number, createdBefore: number): Promise<number>
}
