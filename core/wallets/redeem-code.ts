import * as v from 'valibot'
import { OAuthError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import { WALLET_ACCESS_TOKEN_TTL_SECONDS } from './lifetimes.ts'
import { PRE_AUTHORIZED_CODE_GRANT } from './metadata.ts'
import { redeemOnce } from './redeem-once.ts'
import { redeemableCredential } from './redeemable-credential.ts'
import { credentialIssuerId } from './urls.ts'
import type { WalletKeys } from './wallet-keys.ts'

/** A token request at a club's wallet token endpoint, taken apart by the HTTP face (form parameters). */
export interface PreAuthorizedTokenRequest {
  grantType: string | null
  preAuthorizedCode: string | null
  txCode: string | null
  resource: string | null
}

/** The wallet token response (RFC 6749 §5.1): an access token for the one credential of the code. */
export const walletTokenResponseSchema = v.object({ access_token: v.string(), token_type: v.literal('Bearer'), expires_in: v.number() })
export type WalletTokenResponse = v.InferOutput<typeof walletTokenResponseSchema>

/**
 * The pre-authorized code grant (OID4VCI 1.0 §6): a public client, so no client authentication. Errors are
 * RFC 6749 §5.2: a code that is malformed, forged, expired, of another club, already redeemed, or whose
 * credential is gone or revoked is `invalid_grant`. The code is recorded as used only after every other
 * check passed, so a refused request writes nothing. The access token is bound to the one credential.
 */
export async function redeemPreAuthorizedCode(
  ctx: IssuerContext,
  keys: WalletKeys,
  club: string,
  request: PreAuthorizedTokenRequest,
): Promise<WalletTokenResponse> {
  if (!request.grantType) throw new OAuthError('invalid_request', 'The grant_type parameter is required.')
  if (request.grantType !== PRE_AUTHORIZED_CODE_GRANT)
    throw new OAuthError('unsupported_grant_type', `Only the ${PRE_AUTHORIZED_CODE_GRANT} grant is supported.`)
  if (!request.preAuthorizedCode) throw new OAuthError('invalid_request', 'The pre-authorized_code parameter is required.')
  // OID4VCI 1.0 §6.3: a transaction code the offer did not ask for is invalid_request.
  if (request.txCode !== null) throw new OAuthError('invalid_request', 'This offer needs no tx_code.')
  const issuer = credentialIssuerId(ctx.config, club)
  if (request.resource !== null && request.resource !== issuer) throw new OAuthError('invalid_target', `The resource must be ${issuer}.`)

  const code = await keys.verify('pre-authorized-code', request.preAuthorizedCode, issuer)
  if (!code || typeof code.sub !== 'string' || typeof code.jti !== 'string' || typeof code.exp !== 'number') {
    throw new OAuthError('invalid_grant', 'The pre-authorized code is invalid or has expired.')
  }
  const redeemable = await redeemableCredential(ctx, club, code.sub)
  if ('refusal' in redeemable) throw new OAuthError('invalid_grant', redeemable.refusal)
  if (!(await redeemOnce(ctx, { jti: code.jti, expiresAt: code.exp * 1000 }))) {
    throw new OAuthError('invalid_grant', 'The pre-authorized code has already been used.')
  }
  const accessToken = await keys.sign('access-token', { iss: issuer, aud: issuer, sub: code.sub, jti: code.jti }, WALLET_ACCESS_TOKEN_TTL_SECONDS)
  return { access_token: accessToken, token_type: 'Bearer', expires_in: WALLET_ACCESS_TOKEN_TTL_SECONDS }
}
