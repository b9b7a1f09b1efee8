import { credentialStatus } from '../credentials/status.ts'
import type { IssuerContext } from '../context.ts'

/**
 * Why the credential `credentialId` of `club` cannot go into a wallet now, or `null` when it can: the
 * rule both the token endpoint and the credential endpoint apply. A revoked credential is refused (the
 * share page offers no wallet for it either); an expired one is handed out, as its downloads are: it is
 * the recipient's record, and its verdict says expired wherever it is checked.
 */
export async function redeemableCredential(ctx: IssuerContext, club: string, credentialId: string): Promise<string | null> {
  const credential = await ctx.storage.credentials.findById(credentialId)
  if (!credential || credential.club !== club) return 'The credential of this code does not exist.'
  const issuance = await ctx.storage.issuances.findById(club, credential.issuanceId)
  if (!issuance) return 'The credential of this code does not exist.'
  const status = credentialStatus({ revokedAt: issuance.revokedAt, validUntil: credential.validUntil }, ctx.clock.now())
  return status === 'revoked' ? 'The credential has been revoked.' : null
}
