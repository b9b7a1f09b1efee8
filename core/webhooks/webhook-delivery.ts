/** One event to push to one endpoint, and how that went; the delivery log. */
export interface WebhookDelivery {
  id: number
  endpointId: string
  club: string
  /** The feed event: its id is the `webhook-id`, stable across attempts. */
  eventId: number
  /** The request body (`{ type, timestamp, data }`), fixed when the event is written. */
  payload: string
  /** Attempts started so far, including one in flight. */
  attempts: number
  /** Not before this time (ms): the retry back-off. */
  nextAttemptAt: number
  /** Until when a sender holds the delivery (ms), or `null`. */
  leaseUntil: number | null
  deliveredAt: number | null
  givenUpAt: number | null
  /** HTTP status of the last answered attempt, `null` when none was answered. */
  lastStatus: number | null
  lastError: string | null
  createdAt: number
}

/** A delivery as enqueued: the rest starts empty. */
export type NewWebhookDelivery = Pick<WebhookDelivery, 'endpointId' | 'club' | 'eventId' | 'payload' | 'nextAttemptAt' | 'createdAt'>
