import { clubDataIntegrityKeyOwner, clubDid } from '../did-documents/did.ts'
import { credentialOfJwt } from '../credentials/json-ld-form.ts'
import { signDataIntegrity } from '../credentials/sign-data-integrity.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord } from '../issuances/issuance.ts'

/**
 * One round of proofs (docs/data-integrity.md § Signing): up to `limit` stored credentials whose Data
 * Integrity proof is still to be made get it, signed with their club's Ed25519 key over the credential
 * of their JWT, and stored. Proofs are deterministic (the same credential and key give the same proof),
 * and a proof is stored only where none is, so two workers proving one credential store it once.
 * Returns the number of proofs stored.
 */
export async function provePendingCredentials(ctx: IssuerContext, limit: number): Promise<number> {
  const signer = ctx.dataIntegritySigner
  if (!signer) return 0
  const unproven = await ctx.storage.credentials.listUnproven(limit)
  let stored = 0
  for (const credentials of groupByClub(unproven)) {
    const club = credentials[0]!.club
    const key = await ctx.keys.activeKey(clubDataIntegrityKeyOwner(club))
    const secured = await signDataIntegrity(
      signer,
      key,
      clubDid(ctx.config, club),
      credentials.map((record) => credentialOfJwt(record.jwt)),
    )
    const proofs = credentials.map((record, i) => ({ id: record.id, proof: JSON.stringify(secured[i]!.proof) }))
    stored += await ctx.storage.transaction((tx) => tx.credentials.storeProofs(proofs), { concurrent: true })
  }
  return stored
}

function groupByClub(credentials: CredentialRecord[]): CredentialRecord[][] {
  const groups = new Map<string, CredentialRecord[]>()
  for (const credential of credentials) {
    const group = groups.get(credential.club)
    if (group) group.push(credential)
    else groups.set(credential.club, [credential])
  }
  return [...groups.values()]
}
