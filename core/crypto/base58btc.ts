const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/**
 * base58btc (the Bitcoin alphabet), as multibase's `z` prefix and Data Integrity's `proofValue` use it.
 * Each leading zero byte is one `1`; the rest is the big-endian number in base 58. Quadratic in the
 * length, which is fine for what it encodes here: 34-byte public keys.
 */
export function toBase58btc(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  // Little-endian base-58 digits of the number the bytes after the zeros spell.
  const digits: number[] = []
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8
      digits[j] = carry % 58
      carry = Math.floor(carry / 58)
    }
    while (carry > 0) {
      digits.push(carry % 58)
      carry = Math.floor(carry / 58)
    }
  }
  let text = '1'.repeat(zeros)
  for (let j = digits.length - 1; j >= 0; j--) text += ALPHABET[digits[j]!]!
  return text
}

/** The bytes of a base58btc text (without multibase's `z`), or `null` when a character is not of the alphabet. */
export function fromBase58btc(text: string): Uint8Array<ArrayBuffer> | null {
  let zeros = 0
  while (zeros < text.length && text[zeros] === '1') zeros++
  // Little-endian bytes of the number the characters after the leading ones spell.
  const bytes: number[] = []
  for (let i = zeros; i < text.length; i++) {
    let carry = ALPHABET.indexOf(text[i]!)
    if (carry < 0) return null
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58
      bytes[j] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()])
}
