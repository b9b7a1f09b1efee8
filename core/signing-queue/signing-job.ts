/** A pending signing job: one per issuance without a credential. */
export interface SigningJob {
  issuanceId: number
  club: string
  /** The status-list slot reserved for the credential, kept across retries so that none is wasted. */
  statusListId: number | null
  statusListIndex: number | null
  attempts: number
  /** Until when a worker holds the job (ms), or `null`. */
  leaseUntil: number | null
  lastError: string | null
}
