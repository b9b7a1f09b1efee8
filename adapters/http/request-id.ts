/**
 * The request id (docs/logs.md § Request ids): one per request, in the `X-Request-Id` answer header, in
 * every problem document as `requestId`, and in the request's log line, so that a user's report and the
 * operator's log meet on one value. The fetch handler settles it once and notes it on the Request it
 * routes, as itty notes `params` and `route` there; every part of the HTTP face reads it from the request
 * it was handed. No copy of the Request (a copy costs tens of µs), no runtime's async context.
 */
import { holdsSecret } from '../shared/mask-secrets.ts'

export const REQUEST_ID_HEADER = 'x-request-id'

/** Where the id is noted on a Request; `Symbol.for`, so that two copies of this module agree. */
const REQUEST_ID = Symbol.for('clubcred.requestId')

type Identified = Request & { [REQUEST_ID]?: string }

/**
 * An id a proxy or client sent is kept when it is plain: it lands in log lines and headers, so it must
 * not be able to forge a log line or smuggle a header.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/

/**
 * The incoming `X-Request-Id` when it is sane and not shaped like a secret, else a new random id (a
 * UUID). An id is echoed and logged as it is, so one the log would mask (a client secret `ccs_…`, an API
 * key, a JWT: a client that put its secret in the wrong header) is refused rather than kept.
 */
export function acceptedRequestId(incoming: string | null): string {
  return incoming !== null && SANE_REQUEST_ID.test(incoming) && !holdsSecret(incoming) ? incoming : crypto.randomUUID()
}

/** Settles the id of `request` (its sane `X-Request-Id`, else a new one) and notes it there; returns it. */
export function settleRequestId(request: Request, requestId = acceptedRequestId(request.headers.get(REQUEST_ID_HEADER))): string {
  ;(request as Identified)[REQUEST_ID] = requestId
  return requestId
}

/** The id settled for `request`; a request that did not pass through the fetch handler gets one now. */
export function requestIdOf(request: Request): string {
  return (request as Identified)[REQUEST_ID] ?? settleRequestId(request)
}

/** `response` carrying the request id; a response whose headers are immutable is copied. */
export function withRequestIdHeader(response: Response, requestId: string): Response {
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId)
    return response
  } catch {
    const copy = new Response(response.body, response)
    copy.headers.set(REQUEST_ID_HEADER, requestId)
    return copy
  }
}
