import * as v from 'valibot'
import { OAuthError } from '../../../core/errors.ts'
import { mediaType, readBody } from '../body.ts'
import { json } from '../responses.ts'
import type { Call } from '../operation.ts'

/** The token request's form (RFC 6749 §4.4.2), for the document: `issueToken` reads these two parameters. */
export const tokenFormSchema = v.object({ grant_type: v.literal('client_credentials'), scope: v.optional(v.string()) })

/** `POST {auth_url}/token`: the client credentials grant (docs/api.md §4.1, RFC 6749 §4.4). */
export async function issueToken({ issuer, request }: Call): Promise<Response> {
  const { clientId, clientSecret } = basicCredentials(request.headers.get('authorization'))
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'Send the token request as application/x-www-form-urlencoded.')
  }
  let form: URLSearchParams
  try {
    form = new URLSearchParams(new TextDecoder().decode(await readBody(request, issuer.config.maxBodyBytes)))
  } catch (error) {
    throw new OAuthError('invalid_request', 'The token request body is too large.', { cause: error })
  }
  // RFC 6749 §3.2: request parameters MUST NOT be included more than once.
  const repeated = [...new Set(form.keys())].find((name) => form.getAll(name).length > 1)
  if (repeated !== undefined) throw new OAuthError('invalid_request', `The parameter ${repeated} is repeated.`)
  const token = await issuer.tokens.issue({
    clientId,
    clientSecret,
    grantType: form.get('grant_type'),
    scope: form.get('scope'),
  })
  return json(token, 200, { pragma: 'no-cache' })
}

/**
 * Client id and secret from HTTP Basic. RFC 6749 §2.3.1 form-urlencodes both before base64, so
 * decode them (clients such as openid-client encode `:` and `+`); a value that does not decode is used as sent.
 */
function basicCredentials(header: string | null): { clientId: string | null; clientSecret: string | null } {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header ?? '')
  if (!match) return { clientId: null, clientSecret: null }
  let decoded: string
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)))
  } catch {
    return { clientId: null, clientSecret: null }
  }
  const colon = decoded.indexOf(':')
  if (colon < 0) return { clientId: null, clientSecret: null }
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) }
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '))
  } catch {
    return value
  }
}
