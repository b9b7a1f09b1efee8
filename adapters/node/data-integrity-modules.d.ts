/**
 * Types for Digital Bazaar's untyped Data Integrity libraries (docs/data-integrity.md § Libraries): only
 * what adapters/node/data-integrity-signer.ts calls.
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
  export const cryptosuite: { name: 'eddsa-rdfc-2022'; requiredAlgorithm: 'Ed25519' }
}

declare module 'jsonld-signatures' {
  export type Loader = (url: string) => Promise<{ contextUrl: string | null; documentUrl: string; document: unknown }>
  /** The base of signature suites that hash canonical proof options and document (jsonld-signatures 11). */
  export class LinkedDataSignature {
    constructor(options: { type: string; contextUrl?: string })
    getVerificationMethod(options: { proof: unknown; documentLoader: Loader }): Promise<unknown>
    verifySignature(options: { verifyData: Uint8Array<ArrayBuffer>; verificationMethod: unknown; proof: unknown }): Promise<boolean>
    ensureSuiteContext(options: { document: unknown; addSuiteContext?: boolean }): void
  }
  const jsigs: {
    sign<T extends object>(document: T, options: { suite: unknown; purpose: unknown; documentLoader: Loader }): Promise<T & { proof: unknown }>
    verify(
      document: object,
      options: { suite: unknown; purpose: unknown; documentLoader: Loader },
    ): Promise<{ verified: boolean; error?: Error & { errors?: Error[] } }>
    purposes: { AssertionProofPurpose: new () => unknown; AuthenticationProofPurpose: new (options: { challenge: string; domain?: string }) => unknown }
    suites: { LinkedDataSignature: typeof LinkedDataSignature }
  }
  export default jsigs
}
