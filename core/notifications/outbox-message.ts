/** An e-mail waiting to be sent (transactional outbox). */
export interface OutboxMessage {
  id: number
  club: string
  issuanceId: number
  to: string
  subject: string
  text: string
  html: string
  attempts: number
  /** Not before this time (ms): the retry back-off, and the lease of a sender working on it. */
  nextAttemptAt: number
  sentAt: number | null
  lastError: string | null
  createdAt: number
}

/** A message as enqueued: the rest starts empty. */
export type NewOutboxMessage = Omit<OutboxMessage, 'id' | 'attempts' | 'sentAt' | 'lastError'>
