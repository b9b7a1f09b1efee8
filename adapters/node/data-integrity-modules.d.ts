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
  type Loader = (url: string) => Promise<{ contextUrl: string | null; documentUrl: string; document: unknown }>
  const jsigs: {
    sign<T extends object>(document: T, options: { suite: unknown; purpose: unknown; documentLoader: Loader }): Promise<T & { proof: unknown }>
    purposes: { AssertionProofPurpose: new () => unknown }
  }
  export default jsigs
}
