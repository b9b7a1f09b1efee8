import { appendEvent } from '../events/append.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { ClaimChannel, ClaimFormat } from './issuance-claim.ts'

/**
 * Records that a wallet took the credential (docs/api.md §2.6 `claims`): called once the OID4VCI
 * credential endpoint has its answer, or the Learner Credential Wallet exchange is completed. The first
 * claim of the issuance also appends `issuance.claimed`, in the same unit: the store's constraint picks
 * that first claim, so two nodes answering two wallets at once emit the event once.
 */
export async function recordClaim(ctx: IssuerContext, credential: CredentialRecord, via: ClaimChannel, format: ClaimFormat): Promise<void> {
  const at = ctx.clock.now()
  await ctx.storage.transaction(
    async (tx) => {
      const first = await tx.claims.record({ issuanceId: credential.issuanceId, club: credential.club, via, format, at })
      if (first) {
        await appendEvent(tx, {
          club: credential.club,
          type: 'issuance.claimed',
          subject: { type: 'issuance', id: String(credential.issuanceId) },
          occurredAt: at,
        })
      }
    },
    { club: credential.club },
  )
}
