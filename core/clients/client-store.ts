import type { ApiClient } from './api-client.ts'

export interface ClientStore {
  /** MUST throw `StorageConflict` when the id exists. */
  insert(client: ApiClient): Promise<void>
  findById(id: string): Promise<ApiClient | null>
  /** The club's clients, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByClub(club: string): Promise<ApiClient[]>
  /** Replaces the secret hash. Returns `false` when there is no such client. */
  updateSecret(id: string, secretHash: string, secretSetAt: number): Promise<boolean>
  /** Returns `false` when there was no such client. MUST also delete the client's `ClientAuthFailureStore` window. */
  delete(id: string): Promise<boolean>
}
