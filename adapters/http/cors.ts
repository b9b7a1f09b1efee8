/*
 * CORS of the public verification surface (docs/api.md §4.11, docs/decisions/0019-verification-and-revocation.md):
 * every answer, problems included, is readable from any origin, so that a verifier's page on another
 * site sees a 404 rather than a CORS failure.
 */

/** Any origin reads the answer, and its request id (docs/logs.md § Request ids) to quote in a report. */
export const ANY_ORIGIN: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'X-Request-Id' }

/** `response`, readable from any origin. */
export function readableFromAnyOrigin(response: Response): Response {
  for (const [name, value] of Object.entries(ANY_ORIGIN)) response.headers.set(name, value)
  return response
}

/**
 * The preflight of the public surface: a verifier's page may send If-None-Match (not a CORS-safelisted
 * header), so it asks first. Reads are GET and HEAD; a wallet running in a browser also POSTs to the
 * OID4VCI token, nonce and credential endpoints, with a JSON body and a bearer token (no cookies: any
 * origin may, as with every public answer).
 */
export function publicPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...ANY_ORIGIN,
      'access-control-allow-methods': 'GET, HEAD, POST',
      'access-control-allow-headers': 'If-None-Match, Accept, Accept-Language, Authorization, Content-Type',
      'access-control-max-age': '86400',
    },
  })
}
