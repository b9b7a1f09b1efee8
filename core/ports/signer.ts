import type { SigningKey } from './key-store.ts'

/**
 * Signs compact JWS (ES256). Payloads arrive serialized, so that a signer never re-serializes or
 * re-parses them on the hot path. The default is portable WebCrypto (`core/credentials/webcrypto-signer.ts`);
 * `clubcred/node` has a faster node:crypto signer.
 */
export interface JwtSigner {
  /**
   * Signs every payload with `key` under the same protected header; returns the compact JWS strings in
   * the order of `payloads`.
   */
  signMany(key: SigningKey, header: Record<string, unknown>, payloads: string[]): Promise<string[]>
  /** Releases threads or other resources; `issuer.close()` calls it. */
  close?(): Promise<void>
}
