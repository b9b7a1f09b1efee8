import { errors, jwtVerify, type JWTHeaderParameters } from 'jose'
import { invalidToken } from '../errors.ts'
import { parseScopeString, type ScopeName } from '../scopes.ts'
import { PLATFORM_KEY_OWNER, accessTokenAudience, accessTokenIssuer } from './issue.ts'
import type { IssuerContext } from '../context.ts'
import { SECRET_BINDING_CLAIM, secretBinding } from './secret-binding.ts'
import type { Principal } from './principal.ts'

/**
 * Verifies a bearer access token: ES256 signature by a platform key, `at+jwt` type, issuer, audience,
 * expiry by the injected clock, and that the client still exists with the secret the token was
 * obtained with. Any failure is 401 `invalid-token`.
 */
export async function verifyAccessToken(ctx: IssuerContext, token: string): Promise<Principal> {
  let payload
  try {
    ;({ payload } = await jwtVerify(token, (header: JWTHeaderParameters) => platformKey(ctx, header), {
      algorithms: ['ES256'],
      typ: 'at+jwt',
      issuer: accessTokenIssuer(ctx),
      audience: accessTokenAudience(ctx),
      currentDate: new Date(ctx.clock.now()),
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
    }))
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw invalidToken('The access token has expired.', error)
    throw invalidToken('The access token is invalid.', error)
  }
  const { sub, club, scope, jti } = payload
  if (typeof club !== 'string' || typeof scope !== 'string' || typeof sub !== 'string' || typeof jti !== 'string') {
    throw invalidToken('The access token lacks required claims.')
  }
  const client = await ctx.storage.clients.findById(sub)
  if (!client || client.club !== club) throw invalidToken('The client of this access token no longer exists.')
  // Bound to the exact secret it was obtained with: a rotation revokes it, also within the same second.
  if (payload[SECRET_BINDING_CLAIM] !== (await secretBinding(client.secretHash))) {
    throw invalidToken('The client secret was rotated after this access token was issued.')
  }
  const scopes = scope
    .split(' ')
    .map(parseScopeString)
    .filter((name): name is ScopeName => name !== null && client.scopes.includes(name))
  return { clientId: sub, club, scopes, tokenId: jti }
}

async function platformKey(ctx: IssuerContext, header: JWTHeaderParameters): Promise<CryptoKey> {
  const key = header.kid ? await ctx.keys.verificationKey(PLATFORM_KEY_OWNER, header.kid) : null
  if (!key) throw invalidToken('The access token was not signed by a key of this issuer.')
  return key
}
