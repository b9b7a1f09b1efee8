const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/**
 * Base58btc, the multibase of a `proofValue` after its `z` (W3C Data Integrity EdDSA Cryptosuites v1.0
 * §3.3.1): leading zero bytes as `1`s, then the number the rest spells, in base 58. The same text as
 * base58-universal, which the reference path uses (test/adapters/data-integrity-proofs.test.ts).
 */
export function base58btc(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  // Little-endian base-58 digits of the number, carried byte by byte.
  const digits: number[] = []
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! * 256
      digits[j] = carry % 58
      carry = Math.floor(carry / 58)
    }
    while (carry > 0) {
      digits.push(carry % 58)
      carry = Math.floor(carry / 58)
    }
  }
  let text = '1'.repeat(zeros)
  for (let i = digits.length - 1; i >= 0; i--) text += ALPHABET[digits[i]!]
  return text
}

/** The bytes of base58btc text; `null` when it is not base58btc. */
export function base58btcDecode(text: string): Uint8Array<ArrayBuffer> | null {
  let value = 0n
  let zeros = 0
  for (const char of text) {
    const digit = ALPHABET.indexOf(char)
    if (digit < 0) return null
    if (value === 0n && digit === 0) zeros++
    value = value * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  for (; value > 0n; value >>= 8n) bytes.unshift(Number(value & 0xffn))
  return new Uint8Array([...new Array<number>(zeros).fill(0), ...bytes])
}
