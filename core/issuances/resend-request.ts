/**
 * A request to mail an issuance's recipient again (`POST …/issuances/{id}/notify`, docs/api.md §4.7a):
 * kept so that the limit of resends holds across every node, and so that a request made before the
 * credential exists is mailed once it does.
 */
export interface ResendRequest {
  id: number
  club: string
  issuanceId: number
  requestedAt: number
  /** When its mail was put in the outbox; `null` while the issuance waits for its credential. */
  mailedAt: number | null
}

export type NewResendRequest = Omit<ResendRequest, 'id'>
