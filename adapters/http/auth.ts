import { invalidToken } from '../../core/errors.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import type { Principal } from '../../core/tokens/principal.ts'

/** `Authorization: Bearer <token>`, the token in RFC 6750 §2.1's `b64token` characters. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i

/**
 * The token of an `Authorization: Bearer <token>` header, or `null` when there is no such header or
 * it is not of that form: the one reading of a bearer token, for the club API and the wallets'
 * credential endpoint alike.
 */
export function bearerTokenOf(request: Request): string | null {
  return BEARER.exec(request.headers.get('authorization') ?? '')?.[1] ?? null
}

/** The bearer token of `Authorization: Bearer <token>` (docs/api.md §5 item 3), verified. */
export async function authenticate(issuer: CoreIssuer, request: Request): Promise<Principal> {
  const token = bearerTokenOf(request)
  if (token === null) throw invalidToken('Send an access token as Authorization: Bearer <token>.')
  return issuer.tokens.verify(token)
}
