import { invalidToken } from '../../core/errors.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'
import type { Principal } from '../../core/tokens/principal.ts'

/** The bearer token of `Authorization: Bearer <token>` (spec §5 item 3), verified. */
export async function authenticate(issuer: CoreIssuer, request: Request): Promise<Principal> {
  const header = request.headers.get('authorization') ?? ''
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header)
  if (!match) throw invalidToken('Send an access token as Authorization: Bearer <token>.')
  return issuer.tokens.verify(match[1]!)
}
