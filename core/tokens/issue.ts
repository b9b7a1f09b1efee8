import * as v from 'valibot'
import { SignJWT } from 'jose'
import { OAuthError } from '../errors.ts'
import { hashSecret, verifySecret } from '../crypto/secret-hash.ts'
import { parseScopeString, toScopeString, type ScopeName } from '../scopes.ts'
import type { IssuerContext } from '../context.ts'
import { SECRET_BINDING_CLAIM, secretBinding } from './secret-binding.ts'

/** The owner name of the key that signs access tokens. */
export const PLATFORM_KEY_OWNER = 'platform'

/** A client credentials token request (docs/api.md §4.1), already taken apart by the HTTP face. */
export interface TokenRequest {
  clientId: string | null
  clientSecret: string | null
  grantType: string | null
  scope: string | null
}

/** The token response (docs/api.md §4.1, RFC 6749 §5.1): `scope` the space-separated `svc:openapi:<scope>` strings granted. */
export const tokenResponseSchema = v.object({ access_token: v.string(), token_type: v.literal('Bearer'), expires_in: v.number(), scope: v.string() })
export type TokenResponse = v.InferOutput<typeof tokenResponseSchema>

/** The audience of access tokens: the club API. */
export function accessTokenAudience(ctx: IssuerContext): string {
  return ctx.config.urls.base
}

/** The issuer of access tokens: the authorization server. */
export function accessTokenIssuer(ctx: IssuerContext): string {
  return ctx.config.urls.auth
}

/** The client credentials grant: authenticates the client, checks the grant and scope, signs the token. */
export async function issueAccessToken(ctx: IssuerContext, request: TokenRequest): Promise<TokenResponse> {
  try {
    const response = await issueFor(ctx, request)
    ctx.metrics.tokenRequest('issued')
    return response
  } catch (error) {
    ctx.metrics.tokenRequest(error instanceof OAuthError ? error.error : 'error')
    throw error
  }
}

async function issueFor(ctx: IssuerContext, request: TokenRequest): Promise<TokenResponse> {
  const client = await authenticateClient(ctx, request.clientId, request.clientSecret)

  if (!request.grantType) throw new OAuthError('invalid_request', 'The grant_type parameter is required.')
  if (request.grantType !== 'client_credentials') {
    throw new OAuthError('unsupported_grant_type', 'Only the client_credentials grant is supported.')
  }
  const scopes = grantedScopes(request.scope, client.scopes)

  const key = await ctx.keys.activeKey(PLATFORM_KEY_OWNER)
  const issuedAt = Math.floor(ctx.clock.now() / 1000)
  const scope = scopes.map(toScopeString).join(' ')
  const accessToken = await new SignJWT({ club: client.club, scope, [SECRET_BINDING_CLAIM]: await secretBinding(client.secretHash) })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
    .setIssuer(accessTokenIssuer(ctx))
    .setSubject(client.id)
    .setAudience(accessTokenAudience(ctx))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ctx.config.accessTokenTtlSeconds)
    .setJti(ctx.random.uuid())
    .sign(key.privateKey)
  return { access_token: accessToken, token_type: 'Bearer', expires_in: ctx.config.accessTokenTtlSeconds, scope }
}

async function authenticateClient(ctx: IssuerContext, clientId: string | null, clientSecret: string | null) {
  if (!clientId || clientSecret === null) {
    throw new OAuthError('invalid_client', 'Client authentication with HTTP Basic is required.')
  }
  const retryAfter = await ctx.clientAuthFailures.retryAfter(clientId)
  if (retryAfter > 0) {
    throw new OAuthError('rate_limited', 'Too many failed authentications for this client; try again later.', { retryAfter })
  }
  const client = await ctx.storage.clients.findById(clientId)
  // Hash even for an unknown client, so that timing does not tell which client ids exist.
  const valid = client ? await verifySecret(clientSecret, client.secretHash) : (await hashSecret(clientSecret), false)
  if (!client || !valid) {
    await ctx.clientAuthFailures.recordFailure(clientId)
    throw new OAuthError('invalid_client', 'Client authentication failed.')
  }
  await ctx.clientAuthFailures.recordSuccess(clientId)
  return client
}

/** No `scope` grants every scope the client holds (docs/decisions/0003-scopes-per-operation.md); asking for one it lacks is `invalid_scope`. */
function grantedScopes(requested: string | null, held: ScopeName[]): ScopeName[] {
  const strings = (requested ?? '').split(' ').filter((part) => part.length > 0)
  if (strings.length === 0) return held
  const granted = new Set<ScopeName>()
  for (const value of strings) {
    const name = parseScopeString(value)
    if (!name) throw new OAuthError('invalid_scope', `Unknown scope ${value}; scopes look like svc:openapi:issuance:read.`)
    if (!held.includes(name)) throw new OAuthError('invalid_scope', `The client does not hold the scope ${value}.`)
    granted.add(name)
  }
  return held.filter((name) => granted.has(name))
}
