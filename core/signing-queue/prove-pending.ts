import { clubDataIntegrityKeyOwner, clubDid } from '../did-documents/did.ts'
import { proveJwts } from '../credentials/prove-jwts.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord, SettledProof } from '../credentials/credential-record.ts'
import { retryDelayMs } from './retry-delay.ts'
import { groupBy } from '../util/group-by.ts'
import { settleUnprovable } from './settle-unprovable.ts'

/** A credential leased for its proof, and how often its proof was tried before. */
export type ClaimedCredential = { credential: CredentialRecord; attempts: number }

/**
 * One round of proofs (docs/data-integrity.md § Signing): leases up to `limit` stored credentials whose
 * Data Integrity proof is still to be made, signs each with its club's Ed25519 key over the credential of
 * its JWT, and stores the proofs. The lease keeps other workers off these credentials while this one
 * proves them; should it die, the lease ends and another takes them. Returns the number of credentials
 * it claimed, proved or put back. `held` holds the claimed ones' ids while the round runs, for a shutdown
 * that must put them back (`IssuerWorker.releaseHeld`).
 */
export async function provePendingCredentials(ctx: IssuerContext, limit: number, held = new Set<string>()): Promise<number> {
  if (!ctx.dataIntegritySigner) return 0
  const claimed = await claimUnprovenCredentials(ctx, limit)
  await proveClaimed(ctx, claimed, held)
  return claimed.length
}

/** Leases up to `limit` stored credentials whose proof is still to be made (`credentials.claimUnproven`), oldest first. */
export async function claimUnprovenCredentials(ctx: IssuerContext, limit: number): Promise<ClaimedCredential[]> {
  return ctx.storage.transaction((tx) => tx.credentials.claimUnproven(ctx.clock.now(), ctx.config.signingLeaseMs, limit), { concurrent: true })
}

/**
 * Proves and stores the credentials claimed. The clubs are proved side by side (the signer spreads them
 * over its threads), and a club whose proofs fail (its key does not open) has its credentials put back
 * with back-off and the error recorded, without failing the others. `held` holds their ids meanwhile.
 */
export async function proveClaimed(ctx: IssuerContext, claimed: ClaimedCredential[], held = new Set<string>()): Promise<void> {
  for (const { credential } of claimed) held.add(credential.id)
  try {
    await Promise.all(groupBy(claimed, ({ credential }) => credential.club).map((group) => proveClub(ctx, group)))
  } finally {
    for (const { credential } of claimed) held.delete(credential.id)
  }
}

async function proveClub(ctx: IssuerContext, group: ClaimedCredential[]): Promise<void> {
  const club = group[0]!.credential.club
  let proofs: { id: string; proof: SettledProof }[]
  try {
    const key = await ctx.keys.activeKey(clubDataIntegrityKeyOwner(club))
    const json = await proveJwts(
      ctx.dataIntegritySigner!,
      key,
      clubDid(ctx.config, club),
      group.map(({ credential }) => credential.jwt),
    )
    proofs = group.map(({ credential }, i) => ({ id: credential.id, proof: { state: 'made', json: json[i]! } }))
  } catch (error) {
    // One credential the signer refuses must not hold up its club's others: each is tried alone.
    if (group.length > 1) {
      for (const one of group) await proveClub(ctx, [one])
      return
    }
    if (await settleUnprovable(ctx, group[0]!.credential)) return
    const message = error instanceof Error ? error.message : String(error)
    const retryAt = ctx.clock.now() + retryDelayMs(Math.max(...group.map(({ attempts }) => attempts)))
    const ids = group.map(({ credential }) => credential.id)
    await ctx.storage.transaction((tx) => tx.credentials.releaseUnproven(ids, message, retryAt), { concurrent: true })
    return
  }
  // Only where no proof is: a proof, once stored, never changes (the store's contract).
  await ctx.storage.transaction((tx) => tx.credentials.storeProofs(proofs), { concurrent: true })
}
