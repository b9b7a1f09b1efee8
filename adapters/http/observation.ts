/**
 * One answered request, as the HTTP face reports it to monitoring (`FetchHandlerOptions.onResponse`).
 * `route` is the route's template, never the raw path, so that ids in paths never become label values:
 * the itty path that matched (`/v2/clubs/:clubDomain/issuances`), or one of `share-page`, `preflight`,
 * `unmatched` (no route: a 404), or a probe's own path (`/healthz`, `/readyz`, `/metrics`).
 */
export interface RequestObservation {
  method: string
  route: string
  status: number
  /** From the request's arrival at the handler until its response (head) is ready. */
  durationMs: number
}
