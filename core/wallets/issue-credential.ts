import * as v from 'valibot'
import { CredentialError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import { jsonLdFormOf } from '../credentials/json-ld-form.ts'
import { recordClaim } from '../issuances/record-claim.ts'
import { CREDENTIAL_CONFIGURATION_ID, LDP_VC_CONFIGURATION_ID } from './metadata.ts'
import { redeemableCredential } from './redeemable-credential.ts'
import { credentialIssuerId } from './urls.ts'
import type { WalletKeys } from './wallet-keys.ts'

/** The credential response (OID4VCI 1.0 §8.3): one credential, the stored compact JWT (`jwt_vc_json`) or the JSON-LD form (`ldp_vc`). */
export const credentialResponseSchema = v.object({ credentials: v.tuple([v.object({ credential: v.union([v.string(), v.record(v.string(), v.unknown())]) })]) })
export type CredentialResponse = v.InferOutput<typeof credentialResponseSchema>

/**
 * The credential endpoint (OID4VCI 1.0 §8): the access token names the one credential it was granted for,
 * and the answer is that credential's stored JWT, the same bytes as its `jwtUrl` (never signed again), or
 * for `OpenBadgeCredential_ldp_vc` its JSON-LD form, the document `jwtUrl` serves to a JSON-LD `Accept`.
 * A `proof` or `proofs` member is ignored, not refused, for both: the metadata asks for none because the
 * stored credential binds no holder key, and refusing a wallet that proves a key anyway would help nobody.
 * The offer names `ldp_vc` only once the proof is made (docs/api.md §11.5); a request for it before, or
 * for a credential signed before proofs, is `credential_request_denied` saying which.
 * Each answer is recorded as a claim (core/issuances/record-claim.ts) before it leaves: a wallet that gets
 * no answer retries, and a claim recorded for an answer lost on the way only tells staff one take too many.
 * Unknown members are ignored (§8.2). `readRequest` yields the parsed JSON request (or throws a
 * `CredentialError`); it is called after the token is verified. Refusals are `CredentialError`s with the codes of §8.3.1.2.
 */
export async function issueCredential(
  ctx: IssuerContext,
  keys: WalletKeys,
  club: string,
  accessToken: string,
  readRequest: () => Promise<unknown>,
): Promise<CredentialResponse> {
  const issuer = credentialIssuerId(ctx.config, club)
  const token = await keys.verify('access-token', accessToken, issuer)
  if (!token || token.aud !== issuer || typeof token.sub !== 'string') {
    throw new CredentialError('invalid_token', 'The access token is invalid or has expired.')
  }
  // Read only once the token holds: an unauthorised caller learns nothing about the request's rules.
  const configuration = checkRequest(await readRequest())
  const redeemable = await redeemableCredential(ctx, club, token.sub)
  if ('refusal' in redeemable) throw new CredentialError('credential_request_denied', redeemable.refusal)
  if (configuration === CREDENTIAL_CONFIGURATION_ID) {
    await recordClaim(ctx, redeemable.credential, 'oid4vci', 'jwt_vc_json')
    return { credentials: [{ credential: redeemable.credential.jwt }] }
  }
  const form = jsonLdFormOf(redeemable.credential)
  if (form.state === 'pending') {
    throw new CredentialError(
      'credential_request_denied',
      `The JSON-LD form of this credential is still being prepared: ask again in a few seconds, or take ${CREDENTIAL_CONFIGURATION_ID}.`,
    )
  }
  if (form.state === 'none') {
    throw new CredentialError('credential_request_denied', `This credential was issued before JSON-LD forms existed: take ${CREDENTIAL_CONFIGURATION_ID}.`)
  }
  await recordClaim(ctx, redeemable.credential, 'oid4vci', 'ldp_vc')
  return { credentials: [{ credential: form.credential }] }
}

/** The configuration a well-formed credential request names; `CredentialError` otherwise. */
function checkRequest(body: unknown): typeof CREDENTIAL_CONFIGURATION_ID | typeof LDP_VC_CONFIGURATION_ID {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CredentialError('invalid_credential_request', 'The credential request must be a JSON object.')
  }
  const request = body as Record<string, unknown>
  if (request.credential_identifier !== undefined) {
    // Only a token response with authorization_details hands out identifiers, and ours never has one.
    throw new CredentialError('unknown_credential_identifier', 'This issuer hands out no credential identifiers; send credential_configuration_id.')
  }
  if (typeof request.credential_configuration_id !== 'string') {
    throw new CredentialError('invalid_credential_request', 'The credential_configuration_id member is required (OID4VCI 1.0).')
  }
  const configuration = request.credential_configuration_id
  if (configuration !== CREDENTIAL_CONFIGURATION_ID && configuration !== LDP_VC_CONFIGURATION_ID) {
    throw new CredentialError(
      'unknown_credential_configuration',
      `The credential configurations are ${CREDENTIAL_CONFIGURATION_ID} and ${LDP_VC_CONFIGURATION_ID}.`,
    )
  }
  if (request.credential_response_encryption !== undefined) {
    throw new CredentialError('invalid_encryption_parameters', 'This issuer does not encrypt credential responses.')
  }
  return configuration
}
