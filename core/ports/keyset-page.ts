/** Keyset page request: rows strictly below `beforeId` (all when `null`), highest id first. */
export interface KeysetPage {
  limit: number
  beforeId: number | null
}
