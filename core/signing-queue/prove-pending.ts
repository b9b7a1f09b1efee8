import { clubDataIntegrityKeyOwner, clubDid } from '../did-documents/did.ts'
import { credentialOfJwt } from '../credentials/json-ld-form.ts'
import { signDataIntegrity } from '../credentials/sign-data-integrity.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import { retryDelayMs } from './retry-delay.ts'
import { groupBy } from '../util/group-by.ts'

type Claimed = { credential: CredentialRecord; attempts: number }

/**
 * One round of proofs (docs/data-integrity.md § Signing): leases up to `limit` stored credentials whose
 * Data Integrity proof is still to be made, signs each with its club's Ed25519 key over the credential of
 * its JWT, and stores the proofs. The lease keeps other workers off these credentials while this one
 * proves them; should it die, the lease ends and another takes them. The clubs of a round are proved
 * side by side (the signer spreads them over its threads), and a club whose proofs fail (its key does not
 * open) has its credentials put back with back-off and the error recorded, without failing the others.
 * Returns the number of credentials it claimed, proved or put back. `held` holds the claimed ones' ids
 * while the round runs, for a shutdown that must put them back (`IssuerWorker.releaseHeld`).
 */
export async function provePendingCredentials(ctx: IssuerContext, limit: number, held = new Set<string>()): Promise<number> {
  if (!ctx.dataIntegritySigner) return 0
  const claimed = await ctx.storage.transaction((tx) => tx.credentials.claimUnproven(ctx.clock.now(), ctx.config.signingLeaseMs, limit), {
    concurrent: true,
  })
  for (const { credential } of claimed) held.add(credential.id)
  try {
    await Promise.all(groupBy(claimed, ({ credential }) => credential.club).map((group) => proveClub(ctx, group)))
  } finally {
    for (const { credential } of claimed) held.delete(credential.id)
  }
  return claimed.length
}

async function proveClub(ctx: IssuerContext, group: Claimed[]): Promise<void> {
  const club = group[0]!.credential.club
  let proofs: { id: string; proof: string }[]
  try {
    const key = await ctx.keys.activeKey(clubDataIntegrityKeyOwner(club))
    const secured = await signDataIntegrity(
      ctx.dataIntegritySigner!,
      key,
      clubDid(ctx.config, club),
      group.map(({ credential }) => credentialOfJwt(credential.jwt)),
    )
    proofs = group.map(({ credential }, i) => ({ id: credential.id, proof: JSON.stringify(secured[i]!.proof) }))
  } catch (error) {
    // One credential the signer refuses must not hold up its club's others: each is tried alone.
    if (group.length > 1) {
      for (const one of group) await proveClub(ctx, [one])
      return
    }
    const message = error instanceof Error ? error.message : String(error)
    const retryAt = ctx.clock.now() + retryDelayMs(Math.max(...group.map(({ attempts }) => attempts)))
    const ids = group.map(({ credential }) => credential.id)
    await ctx.storage.transaction((tx) => tx.credentials.releaseUnproven(ids, message, retryAt), { concurrent: true })
    return
  }
  // Only where no proof is: a proof, once stored, never changes (the store's contract).
  await ctx.storage.transaction((tx) => tx.credentials.storeProofs(proofs), { concurrent: true })
}
