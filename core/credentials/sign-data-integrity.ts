import { contextLoader } from './context-loader.ts'
import { credentialOfJwt } from './json-ld-form.ts'
import type { DataIntegritySigner, DocumentLoader, ProofRequest } from '../ports/data-integrity-signer.ts'
import type { SigningKey } from '../ports/key-store.ts'

/** An OB 3.0 credential as a JSON object: the `vc` of a VC-JWT's payload (core/credentials/build-ob3.ts). */
export type CredentialObject = Record<string, unknown>

/**
 * The JSON-LD form of credentials (docs/data-integrity.md): each the same credential, member for member,
 * with a `DataIntegrityProof` of the `eddsa-rdfc-2022` cryptosuite for the purpose `assertionMethod`,
 * whose `verificationMethod` is `<issuer DID>#<kid>` of the club's Ed25519 key as its DID document
 * lists it. The proof's `created` is the credential's `validFrom`, as the JWT's `nbf` is: Ed25519 is
 * deterministic, so the same credential and key always give the same proof. Contexts load only from
 * clubcred's copies (`contextLoader`, or a narrower loader of them), in JSON-LD safe mode.
 */
export async function signDataIntegrity(
  signer: DataIntegritySigner,
  key: SigningKey,
  did: string,
  credentials: CredentialObject[],
  documentLoader: DocumentLoader = contextLoader,
): Promise<CredentialObject[]> {
  assertEd25519(key)
  return signer.signMany(key, `${did}#${key.kid}`, credentials.map(proofRequestOf), documentLoader)
}

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
  assertEd25519(key)
  if (signer.proveJwts) return signer.proveJwts(key, `${did}#${key.kid}`, jwts, documentLoader)
  const secured = await signer.signMany(key, `${did}#${key.kid}`, jwts.map(proofRequestOfJwt), documentLoader)
  return secured.map((credential) => JSON.stringify(credential.proof))
}

/** The proof request of a stored credential's JWT: its `vc`, proved as of its `validFrom`. */
export function proofRequestOfJwt(jwt: string): ProofRequest {
  return proofRequestOf(credentialOfJwt(jwt))
}

function proofRequestOf(credential: CredentialObject): ProofRequest {
  if ('proof' in credential) throw new TypeError(`credential ${String(credential.id)} already has a proof`)
  if (typeof credential.validFrom !== 'string') throw new TypeError(`credential ${String(credential.id)} has no validFrom`)
  return { credential, created: credential.validFrom }
}

function assertEd25519(key: SigningKey): void {
  if (key.alg !== 'Ed25519') throw new TypeError(`a Data Integrity proof is signed with the club's Ed25519 key, not an ${key.alg} key`)
}
