import type { StoredKey } from './stored-key.ts'

export interface KeyRecordStore {
  /**
   * Inserts a key. When `key.active`, it MUST throw `StorageConflict` if the owner already has an
   * active key: at most one active key per owner, also under concurrent inserts.
   */
  insert(key: StoredKey): Promise<void>
  /** The owner's active key, or `null`. */
  findActive(owner: string): Promise<StoredKey | null>
  findByKid(kid: string): Promise<StoredKey | null>
  /** Every key of the owner, oldest first (createdAt, then kid). */
  listByOwner(owner: string): Promise<StoredKey[]>
  /**
   * The active key of every owner that has one, ordered by owner; `[]` when none. The start-up check
   * opens each with the master key (docs/backup.md § A wrong master key).
   */
  listActive(): Promise<StoredKey[]>
  /** Marks every key of the owner inactive. */
  deactivateAll(owner: string): Promise<void>
}
