import jsigs, { type Loader } from 'jsonld-signatures'
import { fromBase58btc } from '../../core/crypto/base58btc.ts'
import type { PresentationVerifier } from '../../core/ports/presentation-verifier.ts'

const SUITE = 'Ed25519Signature2020'
const ED25519_2020_V1 = 'https://w3id.org/security/suites/ed25519-2020/v1'

/**
 * The DID Authentication check on Digital Bazaar's jsonld-signatures (docs/learner-credential-wallet.md):
 * jsonld-signatures canonicalizes the presentation and the proof options with RDFC-1.0 in safe mode,
 * hashes them, and checks the `authentication` purpose (the challenge, and that the key's controller
 * lists it under `authentication`). The suite below only checks the signature, with WebCrypto's Ed25519 as
 * everywhere else; it is Ed25519Signature2020 (W3C CCG), which the wallet signs with. Why not
 * `@digitalcredentials/ed25519-signature-2020`: it is no dependency of clubcred (only of a test tool).
 */
export function createPresentationVerifier(): PresentationVerifier {
  return {
    async verifyAuthentication(presentation, { challenge }, documentLoader) {
      const proofs = [presentation.proof].flat().filter((proof) => proof !== undefined)
      if (proofs.length !== 1) return { verified: false, reason: 'The presentation must carry exactly one proof.' }
      const proof = proofs[0] as Record<string, unknown>
      if (proof.type !== SUITE) return { verified: false, reason: `The presentation's proof must be an ${SUITE} proof.` }
      if (proof.proofPurpose !== 'authentication') return { verified: false, reason: 'The proof purpose must be authentication.' }
      if (proof.challenge !== challenge) return { verified: false, reason: 'The proof does not answer this exchange’s challenge.' }
      // The key must be the holder's: a presentation of one DID signed by another's key proves nothing.
      if (typeof presentation.holder === 'string' && !String(proof.verificationMethod).startsWith(`${presentation.holder}#`)) {
        return { verified: false, reason: 'The proof is not by a key of the holder.' }
      }
      const purpose = new jsigs.purposes.AuthenticationProofPurpose({ challenge })
      const result = await jsigs.verify({ ...presentation }, { suite: new Ed25519Signature2020Check(), purpose, documentLoader })
      if (result.verified) return { verified: true }
      const error = result.error?.errors?.[0] ?? result.error
      return { verified: false, reason: `The presentation's proof does not verify (${error instanceof Error ? error.message : 'invalid signature'})` }
    },
  }
}

/** Verify-only Ed25519Signature2020: the verification method is the did:key the loader resolves. */
class Ed25519Signature2020Check extends jsigs.suites.LinkedDataSignature {
  constructor() {
    super({ type: SUITE, contextUrl: ED25519_2020_V1 })
  }

  // Loaded as it is (a did:key is computed, not framed), then checked for the one form a wallet's key has.
  override async getVerificationMethod({ proof, documentLoader }: { proof: { verificationMethod?: unknown }; documentLoader: Loader }) {
    if (typeof proof.verificationMethod !== 'string') throw new Error('The proof names no verification method.')
    const { document } = await documentLoader(proof.verificationMethod)
    const method = document as { id?: unknown; type?: unknown; controller?: unknown; publicKeyMultibase?: unknown }
    if (method.type !== 'Ed25519VerificationKey2020' || typeof method.publicKeyMultibase !== 'string') {
      throw new Error('The verification method is no Ed25519VerificationKey2020.')
    }
    return method
  }

  override async verifySignature({
    verifyData,
    verificationMethod,
    proof,
  }: {
    verifyData: Uint8Array<ArrayBuffer>
    verificationMethod: { publicKeyMultibase: string }
    proof: { proofValue?: unknown }
  }) {
    if (typeof proof.proofValue !== 'string' || !proof.proofValue.startsWith('z')) return false
    const signature = fromBase58btc(proof.proofValue.slice(1))
    const multikey = fromBase58btc(verificationMethod.publicKeyMultibase.slice(1))
    if (!signature || signature.length !== 64 || !multikey || multikey.length !== 34) return false
    const key = await crypto.subtle.importKey('raw', multikey.slice(2), 'Ed25519', false, ['verify'])
    return crypto.subtle.verify('Ed25519', key, signature, verifyData)
  }

  override ensureSuiteContext() {
    // Verifying only: the presentation's contexts are what they are; canonicalization in safe mode
    // refuses a term none of them defines.
  }
}
