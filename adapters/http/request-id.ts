/**
 * The request id (docs/logs.md, Request ids): one per request, in the `X-Request-Id` answer header, in
 * every problem document as `requestId`, and in the request's log line, so that a user's report and the
 * operator's log meet on one value. The fetch handler settles it once and puts it on the Request it
 * routes, so every part of the HTTP face reads the same id from the request it was handed.
 */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * An id a proxy or client sent is kept when it is plain: it lands in log lines and headers, so it must
 * not be able to forge a log line, smuggle a header, or carry anything long enough to be a token.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/

/** The incoming `X-Request-Id` when it is sane, else a new random id (a UUID). */
export function acceptedRequestId(incoming: string | null): string {
  return incoming !== null && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
}

/** `request` carrying `requestId` in its `X-Request-Id` header (a copy: an incoming request is never altered). */
export function withRequestId(request: Request, requestId: string): Request {
  if (request.headers.get(REQUEST_ID_HEADER) === requestId) return request
  const headers = new Headers(request.headers)
  headers.set(REQUEST_ID_HEADER, requestId)
  return new Request(request, { headers })
}

/** The id the fetch handler settled for `request`; a request that did not pass through it gets a new one. */
export function requestIdOf(request: Request): string {
  return acceptedRequestId(request.headers.get(REQUEST_ID_HEADER))
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
