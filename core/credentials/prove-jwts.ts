import { contextLoader } from './context-loader.ts'
import { credentialOfJwt } from './json-ld-form.ts'
import { proofRequestOf, verificationMethodOf } from './sign-data-integrity.ts'
import type { DataIntegritySigner, DocumentLoader, ProofRequest } from '../ports/data-integrity-signer.ts'
import type { SigningKey } from '../ports/key-store.ts'

/**
 * The proofs of stored credentials by their JWTs, as `signDataIntegrity` makes them for each JWT's `vc`,
 * each as the proof's JSON text (what `credentials.storeProofs` stores). Through the signer's
 * `proveJwts` where it has one: a JWT is cheap to hand to another thread, which decodes it there, where
 * the decoded credential, cloned across, and its proof, cloned back and written out as JSON, were most of
 * the calling thread's work for a proof (docs/decisions/0050-worker-jobs-and-one-thread-pool.md).
 */
export async function proveJwts(
  signer: DataIntegritySigner,
  key: SigningKey,
  did: string,
  jwts: string[],
  documentLoader: DocumentLoader = contextLoader,
): Promise<string[]> {
  const verificationMethod = verificationMethodOf(key, did)
  if (signer.proveJwts) return signer.proveJwts(key, verificationMethod, jwts, documentLoader)
  const secured = await signer.signMany(key, verificationMethod, jwts.map(proofRequestOfJwt), documentLoader)
  return secured.map((credential) => JSON.stringify(credential.proof))
}

/** The proof request of a stored credential's JWT: its `vc`, proved as of its `validFrom`. */
export function proofRequestOfJwt(jwt: string): ProofRequest {
  return proofRequestOf(credentialOfJwt(jwt))
}
