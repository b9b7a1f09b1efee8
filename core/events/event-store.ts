import type { ClubEvent, EventType } from './event.ts'
import type { KeysetPage } from '../ports/keyset-page.ts'

export interface EventStore {
  /** Appends with a fresh, increasing id; returns it. */
  append(event: Omit<ClubEvent, 'id'>): Promise<number>
  /** `append` of each event in turn, in one go: fresh ids, increasing in the order given; returns them in that order. */
  appendMany(events: Omit<ClubEvent, 'id'>[]): Promise<number[]>
  /** The club's events, highest id (newest) first, keyset-paged. */
  list(club: string, page: KeysetPage): Promise<ClubEvent[]>
  /**
   * The club's events about one subject and of one of `types`, highest id (newest) first, at most
   * `limit`; `[]` when none. Read through an index: its cost does not grow with the club's other events.
   */
  listBySubject(club: string, subject: ClubEvent['subject'], types: readonly EventType[], limit: number): Promise<ClubEvent[]>
}
