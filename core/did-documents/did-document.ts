import * as v from 'valibot'
import { ProblemError } from '../errors.ts'
import { clubDid, clubKeyOwner } from './did.ts'
import type { IssuerContext } from '../context.ts'

/** A public key as a JWK (RFC 7517): its members are the key type's (`kty`, `crv`, `x`, `y` for the clubs' P-256 keys). */
const publicJwkSchema = v.record(v.string(), v.unknown())

/** A club's did:web DID document (DID Core 1.0): every key a `JsonWebKey2020` verification method that may assert credentials. */
export const didDocumentSchema = v.object({
  '@context': v.array(v.string()),
  id: v.string(),
  verificationMethod: v.array(v.object({ id: v.string(), type: v.literal('JsonWebKey2020'), controller: v.string(), publicKeyJwk: publicJwkSchema })),
  assertionMethod: v.array(v.string()),
})
export type DidDocument = v.InferOutput<typeof didDocumentSchema>

/**
 * The club's did:web DID document (docs/decisions/0019-verification-and-revocation.md): every key, current and
 * rotated, as a `JsonWebKey2020` verification method, so that credentials signed before a rotation keep
 * verifying. A club that has not signed anything yet gets its key now (keys are created on first need).
 */
export async function didDocument(ctx: IssuerContext, club: string): Promise<DidDocument> {
  if (!(await ctx.storage.clubs.findByDomain(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
  const did = clubDid(ctx.config, club)
  let keys = await ctx.keys.publicKeys(clubKeyOwner(club))
  if (keys.length === 0) {
    await ctx.keys.activeKey(clubKeyOwner(club))
    keys = await ctx.keys.publicKeys(clubKeyOwner(club))
  }
  const methods = keys.map((key) => ({
    id: `${did}#${key.kid}`,
    type: 'JsonWebKey2020' as const,
    controller: did,
    publicKeyJwk: { ...key.publicJwk },
  }))
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((method) => method.id),
  }
}
