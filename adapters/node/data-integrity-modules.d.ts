/**
 * Types for Digital Bazaar's untyped Data Integrity libraries (docs/data-integrity.md § Libraries): only
 * what adapters/node/data-integrity/eddsa-rdfc-2022.ts and adapters/node/threads/presentation-thread.ts call.
 */
declare module '@digitalbazaar/data-integrity' {
  /** What signs the verify data: the proof's `verificationMethod` is its `id`. */
  export interface DataIntegritySigningKey {
    id: string
    algorithm: string
    sign(input: { data: Uint8Array<ArrayBuffer> }): Promise<Uint8Array>
  }
  export class DataIntegrityProof {
    constructor(options: { signer?: DataIntegritySigningKey; date?: string | Date | null; cryptosuite: unknown })
  }
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: {
    name: 'eddsa-rdfc-2022'
    requiredAlgorithm: 'Ed25519'
    /** jsonld.toRDF, then RDFC-1.0 (rdf-canonize): the canonical N-Quads; `safe` throws on an undefined term. */
    canonize(input: object, options: { documentLoader: unknown; safe: boolean; base: null; skipExpansion?: boolean }): Promise<string>
  }
}

declare module 'jsonld-signatures' {
  export type Loader = (url: string) => Promise<{ contextUrl: string | null; documentUrl: string; document: unknown }>
  const jsigs: {
    sign<T extends object>(document: T, options: { suite: unknown; purpose: unknown; documentLoader: Loader }): Promise<T & { proof: unknown }>
    verify(
      document: object,
      options: { suite: unknown; purpose: unknown; documentLoader: Loader },
    ): Promise<{ verified: boolean; error?: Error & { errors?: Error[] } }>
    purposes: { AssertionProofPurpose: new () => unknown; AuthenticationProofPurpose: new (options: { challenge: string; domain?: string }) => unknown }
  }
  export default jsigs
}

declare module '@digitalbazaar/ed25519-signature-2020' {
  /** Without a key it only verifies: the key is the verification method the loader resolves. */
  export class Ed25519Signature2020 {
    constructor(options?: Record<string, never>)
  }
  /** The package `ed25519-signature-2020-context`, which the suite depends on and re-exports. */
  export const suiteContext: {
    constants: { CONTEXT_URL: 'https://w3id.org/security/suites/ed25519-2020/v1' }
    contexts: ReadonlyMap<string, Record<string, unknown>>
  }
}
