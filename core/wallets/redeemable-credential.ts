import { credentialStatus } from '../credentials/status.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'

/** A credential that may go into a wallet now, or why not. */
export type Redeemable = { credential: CredentialRecord } | { refusal: string }

/**
 * Whether the credential `credentialId` of `club` may go into a wallet now: the rule both the token
 * endpoint and the credential endpoint apply, and the credential itself when it may, so that the
 * credential endpoint hands out what it checked without reading it again. A revoked credential is
 * refused (the share page offers no wallet for it either); an expired one is handed out, as its
 * downloads are: it is the recipient's record, and its verdict says expired wherever it is checked.
 */
export async function redeemableCredential(ctx: IssuerContext, club: string, credentialId: string): Promise<Redeemable> {
  const credential = await ctx.storage.credentials.findById(credentialId)
  if (!credential || credential.club !== club) return { refusal: 'The credential of this code does not exist.' }
  const issuance = await ctx.storage.issuances.findById(club, credential.issuanceId)
  if (!issuance) return { refusal: 'The credential of this code does not exist.' }
  const status = credentialStatus({ revokedAt: issuance.revokedAt, validUntil: credential.validUntil }, ctx.clock.now())
  return status === 'revoked' ? { refusal: 'The credential has been revoked.' } : { credential }
}
