import type { ApiKeyRecord } from './api-key.ts'

export interface ApiKeyStore {
  /** MUST throw `StorageConflict` when the id exists. */
  insert(key: ApiKeyRecord): Promise<void>
  findById(id: string): Promise<ApiKeyRecord | null>
  /** The club's keys, revoked ones included, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByClub(club: string): Promise<ApiKeyRecord[]>
  /** Sets `revokedAt` when the key exists and is not revoked yet. Returns `true` when it changed the row. */
  revoke(id: string, revokedAt: number): Promise<boolean>
}
