import { credentialOfJwt } from '../credentials/json-ld-form.ts'
import { holdsNullId } from '../credentials/null-id.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { IssuerContext } from '../context.ts'

/**
 * Settles a credential whose proof failed and can never succeed (its JWT engraves a `null` id, which
 * JSON-LD refuses: `holdsNullId`) as a credential without a proof (`none`): its JSON-LD form is
 * `none`, as for credentials signed before clubcred made proofs, and no round claims it again (before,
 * it was retried with back-off for ever). Counted in `credentialsWithoutProof`; nothing of the
 * credential is logged. Returns whether it did: a credential it cannot tell is unprovable is left to
 * the back-off. docs/data-integrity.md § Signing
 */
export async function settleUnprovable(ctx: IssuerContext, credential: CredentialRecord): Promise<boolean> {
  let unprovable: boolean
  try {
    unprovable = holdsNullId(credentialOfJwt(credential.jwt))
  } catch {
    return false
  }
  if (!unprovable) return false
  const stored = await ctx.storage.transaction((tx) => tx.credentials.storeProofs([{ id: credential.id, proof: { state: 'none' } }]), { concurrent: true })
  ctx.metrics.credentialsWithoutProof(stored)
  return true
}
