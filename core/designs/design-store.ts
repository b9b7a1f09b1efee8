import type { Design, NewDesign } from './design.ts'
import type { KeysetPage } from '../ports/keyset-page.ts'

export interface DesignStore {
  /** Inserts with a fresh id, higher than any handed out before; returns the stored design. */
  insert(design: NewDesign): Promise<Design>
  /** The club's design with this id; `null` when absent or of another club. */
  findById(club: string, id: number): Promise<Design | null>
  /**
   * Writes `name`, `image`, `layout` and `updatedAt`; `kind` and `createdAt` stay as inserted. Returns
   * `false`, changing nothing, when the club has no design with this id.
   */
  update(design: Design): Promise<boolean>
  /** The club's designs, highest id first, at most `limit`, strictly below `beforeId` when set; `[]` when none. */
  list(club: string, page: KeysetPage): Promise<Design[]>
}
