import type { AchievementTemplate, NewAchievementTemplate, NewRequirement, Requirement } from '../achievements/template.ts'
import type { ApiClient } from '../clients/api-client.ts'
import type { Club } from '../clubs/club.ts'
import type { JWK } from 'jose'

/**
 * The storage port. Every method is async so that a network database fits behind it.
 *
 * Contract for all stores:
 * - reads of something absent return `null` (or `[]`), they never throw;
 * - records go in and come out as plain objects (no prototypes, no driver types);
 * - a uniqueness violation MUST surface as `StorageConflict` from `core/errors.ts`, never a driver error.
 */
export interface ClubStore {
  /** Inserts a club. MUST throw `StorageConflict` when the domain exists. */
  insert(club: Club): Promise<void>
  findByDomain(domain: string): Promise<Club | null>
  /** Sets the listed fields. Returns the updated club, `null` when there is no such club. */
  update(domain: string, changes: Partial<Pick<Club, 'name' | 'canIssue' | 'issuerVerified'>>): Promise<Club | null>
  /** Number of clubs; the server bootstraps `demo` when it is 0. */
  count(): Promise<number>
}

export interface ClientStore {
  /** MUST throw `StorageConflict` when the id exists. */
  insert(client: ApiClient): Promise<void>
  findById(id: string): Promise<ApiClient | null>
  /** Replaces the secret hash. Returns `false` when there is no such client. */
  updateSecret(id: string, secretHash: string, secretSetAt: number): Promise<boolean>
  /** Returns `false` when there was no such client. */
  delete(id: string): Promise<boolean>
}

/** A key as stored: the private JWK sealed (encrypted) by the key store, opaque to storage. */
export interface StoredKey {
  kid: string
  owner: string
  alg: 'ES256'
  publicJwk: JWK
  sealedPrivateKey: string
  active: boolean
  createdAt: number
}

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
  /** Marks every key of the owner inactive. */
  deactivateAll(owner: string): Promise<void>
}

/** Keyset page request: rows strictly below `beforeId` (all when `null`), highest id first. */
export interface KeysetPage {
  limit: number
  beforeId: number | null
}

export interface AchievementStore {
  /**
   * Inserts a template and its requirements with fresh ids, returning the stored template. Template
   * and requirement ids MUST increase and MUST never be reused, also after deletions.
   */
  insert(template: NewAchievementTemplate): Promise<AchievementTemplate>
  /** The club's template with this id, requirements included (in any order), or `null`. */
  findById(club: string, id: number): Promise<AchievementTemplate | null>
  /**
   * Writes every field of `template` except `id`, `club`, `requirements`, `issuedCount` and `createdAt`.
   * Returns `false` when there is no such template.
   */
  update(template: AchievementTemplate): Promise<boolean>
  /** Deletes the template's requirements and inserts these with fresh ids; returns them. */
  replaceRequirements(templateId: number, requirements: NewRequirement[]): Promise<Requirement[]>
  /** The club's templates, highest id (newest) first, keyset-paged; `[]` when none. */
  list(club: string, page: KeysetPage): Promise<AchievementTemplate[]>
}

/** The stores a unit of work sees. */
export interface Stores {
  clubs: ClubStore
  clients: ClientStore
  keys: KeyRecordStore
  achievements: AchievementStore
}

/** The stores as seen inside a transaction. */
export type UnitOfWork = Stores

export interface StoragePort extends Stores {
  /**
   * Runs `work` as one all-or-nothing unit: when it throws (or rejects), every write it made is
   * undone and the same error is rethrown. Units of work MUST be serialisable: no other unit, in this
   * process or another on the same storage, interleaves with it. Reads made outside a unit MUST NOT
   * see a unit's uncommitted writes. Units MUST NOT be nested (the inner call would wait forever).
   */
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>
  /** Releases connections. The storage MUST NOT be used afterwards. */
  close(): Promise<void>
}
