import { DataIntegrityProof, type DataIntegritySigningKey } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import jsigs from 'jsonld-signatures'
import type { DataIntegritySigner } from '../../core/ports/data-integrity-signer.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'

/**
 * The `eddsa-rdfc-2022` signer on Digital Bazaar's libraries (docs/data-integrity.md § Libraries):
 * jsonld-signatures builds the proof, @digitalbazaar/data-integrity hashes the canonical proof options
 * and document, the cryptosuite canonicalizes with RDFC-1.0 in safe mode. The Ed25519 signature itself
 * is WebCrypto's, as on every runtime. The libraries hash with node:crypto, which Deno provides too.
 *
 * @example
 * const [secured] = await createDataIntegritySigner().signMany(key, `${did}#${key.kid}`, [{ credential, created }], contextLoader)
 */
export function createDataIntegritySigner(): DataIntegritySigner {
  const purpose = new jsigs.purposes.AssertionProofPurpose()
  return {
    async signMany(key, verificationMethod, requests, documentLoader) {
      if (key.alg !== 'Ed25519') throw new TypeError(`eddsa-rdfc-2022 signs with an Ed25519 key, not ${key.alg}`)
      const signer = ed25519Signer(key, verificationMethod)
      const secured: Record<string, unknown>[] = []
      // One at a time: canonicalization is CPU-bound, so interleaving would only hold more in memory.
      for (const { credential, created } of requests) {
        const suite = new DataIntegrityProof({ signer, date: created, cryptosuite })
        // A shallow copy: jsonld-signatures adds `proof` to the object it is given.
        secured.push(await jsigs.sign({ ...credential }, { suite, purpose, documentLoader }))
      }
      return secured
    },
  }
}

function ed25519Signer(key: SigningKey, verificationMethod: string): DataIntegritySigningKey {
  return {
    id: verificationMethod,
    algorithm: 'Ed25519',
    async sign({ data }) {
      return new Uint8Array(await crypto.subtle.sign('Ed25519', key.privateKey, data))
    },
  }
}
