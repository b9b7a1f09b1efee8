import type { SigningKey } from './key-store.ts'

/** A document a JSON-LD document loader answers (JSON-LD 1.1 Processing Algorithms and API, RemoteDocument). */
export interface RemoteDocument {
  contextUrl: null
  documentUrl: string
  document: unknown
  /**
   * `static`: what this URL answers never changes, so a JSON-LD processor may keep the context resolved
   * and processed across calls (jsonld.js's shared context cache, which skips the context's processing
   * on every later proof; docs/data-integrity.md § Cost). Absent: loaded again for every call.
   */
  tag?: 'static'
}

/** Resolves a URL a JSON-LD document names (a context) to its document; throws when it cannot. */
export type DocumentLoader = (url: string) => Promise<RemoteDocument>

/** One credential to secure, and the `created` time of its proof. */
export interface ProofRequest {
  /** The unsecured credential: a JSON-LD object with `@context`, without `proof`. */
  credential: Record<string, unknown>
  /** XML Schema dateTimeStamp (`2026-01-01T00:00:00Z`). */
  created: string
}

/**
 * Adds Data Integrity proofs of the `eddsa-rdfc-2022` cryptosuite (W3C Data Integrity EdDSA
 * Cryptosuites v1.0) to credentials. The implementation canonicalizes with RDFC-1.0, which is what
 * needs a JSON-LD processor and (in the libraries that have one) node:crypto; core never does
 * (docs/data-integrity.md § Libraries). `clubcred/node` has the default on Digital Bazaar's libraries.
 */
export interface DataIntegritySigner {
  /**
   * Returns each credential with a `proof`: `{ type: "DataIntegrityProof", created, verificationMethod,
   * cryptosuite: "eddsa-rdfc-2022", proofPurpose: "assertionMethod", proofValue }`, signed with `key`
   * (Ed25519), in the order of `requests`. The inputs MUST NOT be changed. Every context MUST be loaded
   * through `documentLoader`, never fetched otherwise, and canonicalization MUST run in JSON-LD safe
   * mode: a term no context defines is an error, never a silently unsigned member. Rejects on the
   * first credential it cannot sign.
   */
  signMany(key: SigningKey, verificationMethod: string, requests: ProofRequest[], documentLoader: DocumentLoader): Promise<Record<string, unknown>[]>
  /**
   * The proofs of stored credentials given as their signed JWTs, each as the JSON text of the `proof`
   * `signMany` makes for the JWT's `vc` with `created` its `validFrom`, in the order of `jwts`. The
   * request of each JWT MUST be the one `proofRequestOfJwt` (core/credentials/prove-jwts.ts)
   * makes, so that its rules hold. Optional: a signer whose work runs on another thread takes the JWT,
   * cheap to hand over, and decodes it there (docs/decisions/0050-worker-jobs-and-one-thread-pool.md);
   * without it, core decodes the JWTs and calls `signMany`. Rejects on the first JWT it cannot prove.
   */
  proveJwts?(key: SigningKey, verificationMethod: string, jwts: string[], documentLoader: DocumentLoader): Promise<string[]>
  /** Releases threads or other resources; `issuer.close()` calls it. */
  close?(): Promise<void>
}
