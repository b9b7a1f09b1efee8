import { fromBase64Url, toBase64Url } from './base64url.ts'

/** scrypt's cost parameters: N = 2^ln, block size r, parallelism p. */
export interface ScryptParameters {
  ln: number
  r: number
  p: number
}

export interface ScryptHash extends ScryptParameters {
  salt: Uint8Array
  hash: Uint8Array
}

/**
 * Bounds of what a stored hash may ask for: a hash that names more (a corrupt or planted row) is refused
 * rather than allowed to take gigabytes and minutes. ln 20 with r 16 is 2 GiB, far above any sane choice.
 */
const LIMITS = { ln: [10, 20], r: [1, 16], p: [1, 16] } as const

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{16,86})\$([A-Za-z0-9_-]{43,86})$/

/** `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, both base64url without padding (the PHC string format). */
export function formatScryptHash({ ln, r, p, salt, hash }: ScryptHash): string {
  return `$scrypt$ln=${ln},r=${r},p=${p}$${toBase64Url(salt)}$${toBase64Url(hash)}`
}

/** The parameters, salt and hash of an encoded scrypt hash, or `null` when it is not one within the bounds. */
export function parseScryptHash(encoded: string): ScryptHash | null {
  const match = PHC.exec(encoded)
  if (!match) return null
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (!withinLimits({ ln, r, p })) return null
  return { ln, r, p, salt: fromBase64Url(match[4]!), hash: fromBase64Url(match[5]!) }
}

/** Whether the parameters are within the bounds a stored hash may name. */
export function withinLimits({ ln, r, p }: ScryptParameters): boolean {
  const inside = (value: number, [low, high]: readonly [number, number]) => Number.isInteger(value) && value >= low && value <= high
  return inside(ln, LIMITS.ln) && inside(r, LIMITS.r) && inside(p, LIMITS.p)
}
