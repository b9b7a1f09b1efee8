import * as v from 'valibot'
import { ProblemError } from '../errors.ts'
import { clubDataIntegrityKeyOwner, clubDid, clubKeyOwner } from './did.ts'
import { ed25519PublicKeyMultibase } from './multikey.ts'
import type { IssuerContext } from '../context.ts'

/** A public key as a JWK (RFC 7517): its members are the key type's (`kty`, `crv`, `x`, `y` for the clubs' P-256 keys). */
const publicJwkSchema = v.record(v.string(), v.unknown())

/** A VC-JWT key: the type DID libraries such as did-jwt-vc resolve ES256 `kid`s to. */
const jsonWebKeyMethodSchema = v.object({ id: v.string(), type: v.literal('JsonWebKey2020'), controller: v.string(), publicKeyJwk: publicJwkSchema })

/** A Data Integrity key: Ed25519 as a Multikey (`z6Mk…`), the form eddsa-rdfc-2022 verifiers resolve. */
const multikeyMethodSchema = v.object({ id: v.string(), type: v.literal('Multikey'), controller: v.string(), publicKeyMultibase: v.string() })

/**
 * A club's did:web DID document (DID Core 1.0): every key a verification method that may assert
 * credentials, the VC-JWT keys as `JsonWebKey2020`, the Data Integrity keys as `Multikey`.
 */
export const didDocumentSchema = v.object({
  '@context': v.array(v.string()),
  id: v.string(),
  verificationMethod: v.array(v.variant('type', [jsonWebKeyMethodSchema, multikeyMethodSchema])),
  assertionMethod: v.array(v.string()),
})
export type DidDocument = v.InferOutput<typeof didDocumentSchema>
type VerificationMethod = DidDocument['verificationMethod'][number]

/**
 * The club's did:web DID document (docs/decisions/0019-verification-and-revocation.md;
 * docs/data-integrity.md § Keys): every key, current and rotated, so that credentials signed before a rotation keep verifying;
 * the VC-JWT keys first, as `JsonWebKey2020`, then the Data Integrity keys, as `Multikey`. A club without
 * keys gets both now (keys are created on first need). A club that has an ES256 key but no Ed25519 key
 * yet (it signed before Data Integrity) gets that one with its first proof or rotation, not from this
 * read: reading the DID document of a club that has keys never changes it (its ETag, or what a backup
 * taken just before holds).
 */
export async function didDocument(ctx: IssuerContext, club: string): Promise<DidDocument> {
  if (!(await ctx.storage.clubs.findByDomain(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
  const did = clubDid(ctx.config, club)
  let jwtKeys = await ctx.keys.publicKeys(clubKeyOwner(club))
  if (jwtKeys.length === 0) {
    await ctx.keys.activeKey(clubKeyOwner(club))
    await ctx.keys.activeKey(clubDataIntegrityKeyOwner(club))
    jwtKeys = await ctx.keys.publicKeys(clubKeyOwner(club))
  }
  const dataIntegrityKeys = await ctx.keys.publicKeys(clubDataIntegrityKeyOwner(club))
  const methods: VerificationMethod[] = [
    ...jwtKeys.map((key) => ({ id: `${did}#${key.kid}`, type: 'JsonWebKey2020' as const, controller: did, publicKeyJwk: { ...key.publicJwk } })),
    ...dataIntegrityKeys.map((key) => ({
      id: `${did}#${key.kid}`,
      type: 'Multikey' as const,
      controller: did,
      publicKeyMultibase: ed25519PublicKeyMultibase(key.publicJwk),
    })),
  ]
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((method) => method.id),
  }
}
