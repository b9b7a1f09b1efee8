import type { NewResendRequest, ResendRequest } from './resend-request.ts'

export interface ResendStore {
  /** Stores the request with a fresh id, increasing from call to call; returns it as stored. */
  insert(request: NewResendRequest): Promise<ResendRequest>
  /**
   * The club's requests for this issuance made after `since` (strictly), oldest first; `[]` when none.
   * Core counts them and inserts in one unit of the club, which units' serialisability makes a limit
   * that holds across nodes.
   */
  listSince(club: string, issuanceId: number, since: number): Promise<ResendRequest[]>
  /** Up to `limit` requests not mailed yet (`mailedAt` null) whose issuance has a credential, oldest (lowest id) first. */
  listMailable(limit: number): Promise<ResendRequest[]>
  /**
   * Sets `mailedAt` when it is still null; returns `true` when it changed the row. Of concurrent calls
   * for one request (workers on several nodes) exactly one MUST get `true`. An unknown id is `false`.
   */
  markMailed(id: number, mailedAt: number): Promise<boolean>
}
