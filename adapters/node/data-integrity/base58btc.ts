const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/**
 * Base58btc, the multibase of a `proofValue` after its `z` (W3C Data Integrity EdDSA Cryptosuites v1.0
 * §3.3.1): leading zero bytes as `1`s, then the number the rest spells, in base 58. The same text as
 * base58-universal, which the reference path uses (test/adapters/data-integrity-fast-path.test.ts).
 */
export function base58btc(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  let value = zeros === bytes.length ? 0n : BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`)
  // Eight digits a BigInt division (58^8 < 2^53, exact as a number), then those eight in plain numbers.
  let digits = ''
  while (value > 0n) {
    let chunk = Number(value % CHUNK)
    value /= CHUNK
    for (let i = 0; i < 8 && (chunk > 0 || value > 0n); i++) {
      digits = ALPHABET[chunk % 58]! + digits
      chunk = Math.floor(chunk / 58)
    }
  }
  return '1'.repeat(zeros) + digits
}

const CHUNK = 58n ** 8n

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
