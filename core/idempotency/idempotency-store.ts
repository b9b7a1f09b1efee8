import type { IdempotencyRecord } from './idempotency-record.ts'

export interface IdempotencyStore {
  find(scope: string, key: string): Promise<IdempotencyRecord | null>
  /** MUST throw `StorageConflict` when (scope, key) exists. */
  insert(record: IdempotencyRecord): Promise<void>
  complete(scope: string, key: string, response: { status: number; body: string }): Promise<void>
  delete(scope: string, key: string): Promise<void>
  /** Deletes records whose `expiresAt` is before `now`; returns how many. */
  purgeExpired(now: number): Promise<number>
}
