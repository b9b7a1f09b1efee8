import type * as v from 'valibot'
import type { CredentialError } from '../../core/errors.ts'
import type { oauthErrorSchema } from './oauth-error.ts'

/**
 * Error responses of the OID4VCI credential endpoint: an access token problem is RFC 6750 §3 (401 with a
 * Bearer challenge, which names no error when no token was sent at all); a credential request error is
 * OID4VCI 1.0 §8.3.1.2 (400, `{ error, error_description }`).
 */
export function credentialErrorResponse(error: CredentialError): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' }
  let status = 400
  if (error.error === 'invalid_token') {
    status = 401
    headers['www-authenticate'] = error.tokenMissing ? 'Bearer' : `Bearer error="invalid_token", error_description="${error.message.replace(/["\\]/g, '')}"`
  }
  const body: v.InferOutput<typeof oauthErrorSchema> = { error: error.error, error_description: error.message }
  return new Response(JSON.stringify(body), { status, headers })
}
