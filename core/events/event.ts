/**
 * Every type of event the club feed shows (docs/api.md §6) and webhooks deliver; the one list (docs/webhooks.md
 * repeats it for readers). Append only: receivers filter on these names.
 */
export const EVENT_TYPES = [
  'issuance.issued',
  'issuance.credential_issued',
  'issuance.revoked',
  'webhook.disabled',
  'issuance.notified',
  'issuance.notification_failed',
  'issuance.reissued',
  'issuance.claimed',
  'issuance.expiring',
  'issuance.expired',
] as const

export type EventType = (typeof EVENT_TYPES)[number]

export const isEventType = (value: unknown): value is EventType => (EVENT_TYPES as readonly unknown[]).includes(value)

/** An event of the club feed (docs/api.md §2.10, §6). */
export interface ClubEvent {
  id: number
  club: string
  type: EventType
  /** What the event is about: an issuance, or a webhook endpoint (`webhook.disabled`). */
  subject: { type: 'issuance' | 'webhook'; id: string }
  occurredAt: number
  /** `issuance.reissued` of a re-route only: the issuance the credential moved from (docs/api.md §4.17). */
  previousIssuanceId?: string
}
