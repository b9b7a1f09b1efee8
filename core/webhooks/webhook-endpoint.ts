/** A club's webhook endpoint: where its events are pushed, signed with its secret. */
export interface WebhookEndpoint {
  /** `wh_` and random base64url. */
  id: string
  club: string
  url: string
  /** The event types delivered; `null` for every type, also types added later. */
  events: string[] | null
  /** The `whsec_` secret, sealed by the master key with the endpoint id as associated data. */
  sealedSecret: string
  /** The secret before the last rotation, sealed the same way; it signs too until `previousSecretUntil`. */
  previousSealedSecret: string | null
  previousSecretUntil: number | null
  enabled: boolean
  /** Deliveries given up since the last delivered one; the endpoint is disabled when it reaches the limit. */
  consecutiveGiveUps: number
  createdAt: number
}
