/** An `Idempotency-Key` of a client on a route: the request it was first sent with, and the answer to replay. */
export interface IdempotencyRecord {
  /** Client and route the key belongs to. */
  scope: string
  key: string
  requestHash: string
  /** `null` while the first request is in flight. */
  response: { status: number; body: string } | null
  createdAt: number
  expiresAt: number
}
