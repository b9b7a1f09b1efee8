/**
 * Where core gets randomness and fresh ids. Synchronous like the clock; the default draws from
 * WebCrypto, which every supported runtime has.
 */
export interface RandomSource {
  /** `length` cryptographically secure random bytes. */
  bytes(length: number): Uint8Array
  /** A fresh RFC 9562 version 4 UUID, lower case. */
  uuid(): string
}

export const webCryptoRandom: RandomSource = {
  bytes(length) {
    return crypto.getRandomValues(new Uint8Array(length))
  },
  uuid() {
    return crypto.randomUUID()
  },
}
