import type { Club } from './club.ts'

export interface ClubStore {
  /** Inserts a club. MUST throw `StorageConflict` when the domain exists. */
  insert(club: Club): Promise<void>
  findByDomain(domain: string): Promise<Club | null>
  /** Sets the listed fields. Returns the updated club, `null` when there is no such club. */
  update(domain: string, changes: Partial<Pick<Club, 'name' | 'canIssue' | 'issuerVerified'>>): Promise<Club | null>
  /** Number of clubs; the server bootstraps `demo` when it is 0. */
  count(): Promise<number>
}
