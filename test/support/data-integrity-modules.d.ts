/**
 * Types for the untyped libraries the Data Integrity tests verify with (Digital Bazaar's VC library and
 * context packages): only what they call. The signing side's modules are typed in
 * adapters/node/data-integrity-modules.d.ts.
 */
declare module '@digitalbazaar/vc' {
  export interface VerificationResult {
    verified: boolean
    error?: unknown
    results?: { verified: boolean; error?: unknown; proof?: Record<string, unknown>; verificationMethod?: Record<string, unknown> }[]
    statusResult?: { verified: boolean }
  }
  export function verifyCredential(options: {
    credential: unknown
    suite: unknown
    documentLoader: (url: string) => Promise<{ contextUrl: string | null; documentUrl: string; document: unknown }>
    checkStatus?: (options: { credential: Record<string, unknown> }) => Promise<{ verified: boolean; error?: unknown }>
    now?: Date | string
  }): Promise<VerificationResult>
}

declare module 'did-context' {
  const didContext: { contexts: ReadonlyMap<string, unknown>; CONTEXT_URL: string }
  export default didContext
}

declare module '@digitalbazaar/multikey-context' {
  const multikeyContext: { contexts: ReadonlyMap<string, unknown>; CONTEXT_URL: string }
  export default multikeyContext
}

declare module '@digitalbazaar/ed25519-multikey' {
  interface KeyPair {
    publicKeyMultibase: string
  }
  export function from(key: Record<string, unknown>): Promise<KeyPair>
  export function fromJwk(options: { jwk: Record<string, unknown> }): Promise<KeyPair>
  export function toJwk(options: { keyPair: KeyPair }): Promise<{ kty: string; crv: string; x: string }>
}
