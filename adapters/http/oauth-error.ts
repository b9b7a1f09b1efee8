import * as v from 'valibot'
import type { OAuthError } from '../../core/errors.ts'

/** An RFC 6749 §5.2 error response (the token endpoints). */
export const oauthErrorSchema = v.object({ error: v.string(), error_description: v.string() })

/** RFC 6749 §5.2 error responses of the token endpoint. */
export function oauthErrorResponse(error: OAuthError): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    pragma: 'no-cache',
  }
  let status = 400
  if (error.error === 'invalid_client') {
    status = 401
    headers['www-authenticate'] = 'Basic realm="clubcred", charset="UTF-8"'
  } else if (error.error === 'rate_limited') {
    status = 429
    headers['retry-after'] = String(error.retryAfter ?? 1)
  }
  const body: v.InferOutput<typeof oauthErrorSchema> = { error: error.error, error_description: error.message }
  return new Response(JSON.stringify(body), { status, headers })
}
