/** Types for the Digital Credentials Consortium's untyped libraries the Learner Credential Wallet signs with: only what test/support/lcw-wallet.ts calls. */
declare module '@digitalcredentials/vc' {
  export function createPresentation(options: { holder?: string; verifiableCredential?: unknown; verify?: boolean }): Record<string, unknown>
  export function signPresentation(options: {
    presentation: Record<string, unknown>
    suite: unknown
    challenge: string
    domain?: string
    documentLoader: unknown
  }): Promise<Record<string, unknown>>
}

declare module '@digitalcredentials/ed25519-verification-key-2020' {
  export class Ed25519VerificationKey2020 {
    static generate(options: { seed: Uint8Array }): Promise<Ed25519VerificationKey2020>
    static from(exported: Record<string, unknown>): Promise<Ed25519VerificationKey2020>
    id: string
    controller: string
    fingerprint(): string
    export(options: { publicKey: boolean; privateKey: boolean }): Record<string, unknown>
  }
}

declare module '@digitalcredentials/ed25519-signature-2020' {
  export class Ed25519Signature2020 {
    constructor(options: { key: unknown })
  }
}

declare module '@digitalcredentials/did-method-key' {
  export function driver(): {
    use(options: { multibaseMultikeyHeader: string; fromMultibase: unknown }): void
    fromKeyPair(options: { verificationKeyPair: unknown }): Promise<{ didDocument: { id: string } }>
  }
}

declare module '@digitalcredentials/security-document-loader' {
  export function securityLoader(options?: { fetchRemoteContexts?: boolean }): { build(): unknown }
}
