import type { DocumentLoader } from './data-integrity-signer.ts'

/** What a DID Authentication presentation must answer: the challenge the issuer handed out. */
export interface AuthenticationExpectation {
  challenge: string
}

/** The outcome of checking a DID Authentication presentation. */
export type AuthenticationResult = { verified: true } | { verified: false; reason: string }

/**
 * Checks DID Authentication presentations (W3C VC Data Model: a presentation signed for the proof
 * purpose `authentication`): the `Ed25519Signature2020` proof the Learner Credential Wallet makes with
 * its did:key (docs/learner-credential-wallet.md). Checking it canonicalizes with RDFC-1.0, which needs a
 * JSON-LD processor; core never does (docs/data-integrity.md § Libraries). `clubcred/node` has the default.
 */
export interface PresentationVerifier {
  /**
   * Whether `presentation` carries exactly one valid proof for `authentication` whose `challenge` is
   * the expected one, by a verification method `documentLoader` resolves and its controller authorizes
   * for authentication. Every context and DID document MUST be loaded through `documentLoader`, never
   * fetched otherwise, in JSON-LD safe mode; only the signature suite's own context (which
   * `documentLoader` does not hold) comes from the suite's package. Never throws for a bad presentation:
   * says why. SHOULD NOT hold the caller's thread while it canonicalizes, and MUST answer `verified:
   * false` rather than keep checking past its time budget (docs/learner-credential-wallet.md).
   */
  verifyAuthentication(
    presentation: Record<string, unknown>,
    expected: AuthenticationExpectation,
    documentLoader: DocumentLoader,
  ): Promise<AuthenticationResult>
  /** Releases threads or other resources; `issuer.close()` calls it. */
  close?(): Promise<void>
}
