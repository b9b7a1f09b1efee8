import type { StatusList } from './status-list.ts'

export interface StatusListStore {
  /** Creates a list with a fresh id; returns it. */
  insert(list: Omit<StatusList, 'id' | 'allocated'>): Promise<StatusList>
  /** The club's newest list of this purpose, or `null`. */
  current(club: string, purpose: 'revocation'): Promise<StatusList | null>
  /** The club's lists, oldest first. */
  listByClub(club: string): Promise<StatusList[]>
  /**
   * Takes up to `count` consecutive slot positions of the list, starting at `allocated`, and advances
   * `allocated` past them; `null` when the list is full or absent. MUST never hand out one position twice.
   */
  takeSlots(listId: number, count: number): Promise<{ first: number; count: number } | null>
}
