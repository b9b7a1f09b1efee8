import * as v from 'valibot'
import { ProblemError } from '../errors.ts'
import { clubDataIntegrityKeyOwner, clubDid, clubKeyOwner } from './did.ts'
import { ed25519PublicKeyMultibase } from './multikey.ts'
import type { IssuerContext } from '../context.ts'
import type { PublicKeyRecord } from '../ports/key-store.ts'

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
 * The club's did:web DID document (docs/decisions.md, The signed credential; docs/data-integrity.md,
 * Keys): every key, current and rotated, so that credentials signed before a rotation keep verifying;
 * the VC-JWT keys first, as `JsonWebKey2020`, then the Data Integrity keys, as `Multikey`. A club that
 * has not signed anything yet gets its keys now (keys are created on first need).
 */
export async function didDocument(ctx: IssuerContext, club: string): Promise<DidDocument> {
  if (!(await ctx.storage.clubs.findByDomain(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
  const did = clubDid(ctx.config, club)
  const jwtKeys = await keysOf(ctx, clubKeyOwner(club))
  const dataIntegrityKeys = await keysOf(ctx, clubDataIntegrityKeyOwner(club))
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

/** Every key of the owner, oldest first; the first one made now when there is none. */
async function keysOf(ctx: IssuerContext, owner: string): Promise<PublicKeyRecord[]> {
  const keys = await ctx.keys.publicKeys(owner)
  if (keys.length > 0) return keys
  await ctx.keys.activeKey(owner)
  return ctx.keys.publicKeys(owner)
}
