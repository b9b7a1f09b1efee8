import { contextLoader } from './context-loader.ts'
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
  return signer.signMany(key, verificationMethodOf(key, did), credentials.map(proofRequestOf), documentLoader)
}

/** The proof request of a credential: proved as of its `validFrom`, never a second time. */
export function proofRequestOf(credential: CredentialObject): ProofRequest {
  if ('proof' in credential) throw new TypeError(`credential ${String(credential.id)} already has a proof`)
  if (typeof credential.validFrom !== 'string') throw new TypeError(`credential ${String(credential.id)} has no validFrom`)
  return { credential, created: credential.validFrom }
}

/** `<issuer DID>#<kid>` of the club's key, which must be its Ed25519 key. */
export function verificationMethodOf(key: SigningKey, did: string): string {
  if (key.alg !== 'Ed25519') throw new TypeError(`a Data Integrity proof is signed with the club's Ed25519 key, not an ${key.alg} key`)
  return `${did}#${key.kid}`
}
