import * as v from 'valibot'
import { ProblemError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import { PRE_AUTHORIZED_CODE_TTL_SECONDS } from './lifetimes.ts'
import { jsonLdFormOf } from '../credentials/json-ld-form.ts'
import { CREDENTIAL_CONFIGURATION_ID, LDP_VC_CONFIGURATION_ID, PRE_AUTHORIZED_CODE_GRANT } from './metadata.ts'
import { credentialIssuerId } from './urls.ts'
import type { WalletKeys } from './wallet-keys.ts'

/**
 * The credential offer of one credential (OID4VCI 1.0 §4.1.1), served at its `credential_offer_uri`: a
 * fresh pre-authorized code for the credential on every fetch, signed and short-lived, and nothing
 * stored. It is made for revoked credentials too, so that a link in an old mail gets the token
 * endpoint's OAuth error (which a wallet shows) rather than a 404. Unknown credentials, and credentials
 * of another club, are 404 `credential-not-found`. It names the JSON-LD configuration only once the
 * credential's proof is made, so that a wallet never chooses a form it cannot have yet; the JWT comes
 * first, as it did before the JSON-LD form existed.
 */
/** A credential offer object (OID4VCI 1.0 §4.1.1), with the pre-authorized code grant only. */
export const credentialOfferSchema = v.object({
  credential_issuer: v.string(),
  credential_configuration_ids: v.array(v.string()),
  grants: v.object({ [PRE_AUTHORIZED_CODE_GRANT]: v.object({ 'pre-authorized_code': v.string() }) }),
})
export type CredentialOffer = v.InferOutput<typeof credentialOfferSchema>

export async function credentialOffer(ctx: IssuerContext, keys: WalletKeys, club: string, credentialId: string): Promise<CredentialOffer> {
  const credential = await ctx.storage.credentials.findById(credentialId)
  if (!credential || credential.club !== club) throw new ProblemError('credential-not-found', { detail: 'There is no such credential.' })
  const issuer = credentialIssuerId(ctx.config, club)
  const code = await keys.sign('pre-authorized-code', { iss: issuer, sub: credential.id, jti: ctx.random.uuid() }, PRE_AUTHORIZED_CODE_TTL_SECONDS)
  return {
    credential_issuer: issuer,
    credential_configuration_ids:
      jsonLdFormOf(credential).state === 'ready' ? [CREDENTIAL_CONFIGURATION_ID, LDP_VC_CONFIGURATION_ID] : [CREDENTIAL_CONFIGURATION_ID],
    grants: { [PRE_AUTHORIZED_CODE_GRANT]: { 'pre-authorized_code': code } },
  }
}
