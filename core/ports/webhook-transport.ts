/** One HTTP attempt of a webhook delivery. */
export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
  /** The connection MUST open within this (ms), else the attempt fails. */
  connectTimeoutMs: number
  /** The response status MUST arrive within this (ms) of the start, else the attempt fails. */
  timeoutMs: number
  /**
   * Core's address rule (core/webhooks/address.ts). The transport MUST call it with every address the
   * URL's host resolves to (or the literal address), MUST fail the attempt when it refuses any, and
   * MUST connect only to an address it accepted: never resolve again, so that DNS rebinding cannot
   * swap the address between the check and the connection.
   */
  acceptAddress(address: string): boolean
}

/**
 * Sends webhook attempts: one POST, redirects never followed (a 3xx is an answer like any other), at
 * most a few KiB of the response body read and the rest discarded. Resolves with the status of any
 * answer; rejects (with a message fit for the delivery log, no secrets) when there is none: refused
 * address, DNS, connection, timeout.
 */
export interface WebhookTransport {
  send(request: WebhookRequest): Promise<{ status: number }>
  /** Closes kept-alive connections; `issuer.close()` calls it. */
  close?(): Promise<void>
}
