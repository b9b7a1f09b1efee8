import { Ed25519Signature2020, suiteContext } from '@digitalbazaar/ed25519-signature-2020'
import jsigs from 'jsonld-signatures'
import type { DocumentLoader } from '../../core/ports/data-integrity-signer.ts'
import type { PresentationVerifier } from '../../core/ports/presentation-verifier.ts'

const SUITE = 'Ed25519Signature2020'

/**
 * The DID Authentication check on Digital Bazaar's libraries (docs/learner-credential-wallet.md § Libraries):
 * their `Ed25519Signature2020` suite, the upstream of the one the wallet signs with, on jsonld-signatures,
 * which canonicalizes the presentation and the proof options with RDFC-1.0 in safe mode, hashes them, and
 * checks the `authentication` purpose (the challenge, and that the key's controller lists it under
 * `authentication`). The checks before it are what jsonld-signatures lets through (a second proof, a key
 * of another DID than the holder's) and clear reasons for the common refusals.
 */
export function createPresentationVerifier(): PresentationVerifier {
  return {
    async verifyAuthentication(presentation, { challenge }, documentLoader) {
      // jsonld-signatures accepts a document when any one of its proofs verifies.
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
      const suite = new Ed25519Signature2020()
      const result = await jsigs.verify({ ...presentation }, { suite, purpose, documentLoader: withSuiteContext(documentLoader) })
      if (result.verified) return { verified: true }
      const error = result.error?.errors?.[0] ?? result.error
      return { verified: false, reason: `The presentation's proof does not verify (${error instanceof Error ? error.message : 'invalid signature'})` }
    },
  }
}

/**
 * The suite's own context from the copy the suite ships (the package `ed25519-signature-2020-context`,
 * which it re-exports), everything else from the exchange's loader: a context of the signature belongs to
 * the code that checks it.
 */
function withSuiteContext(documentLoader: DocumentLoader): DocumentLoader {
  const url = suiteContext.constants.CONTEXT_URL
  const document = suiteContext.contexts.get(url)
  return async (requested) => (requested === url ? { contextUrl: null, documentUrl: url, document } : documentLoader(requested))
}
