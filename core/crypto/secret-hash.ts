import { toBase64Url } from './base64url.ts'

const encoder = new TextEncoder()

/**
 * Hashes a client secret or API key for storage. The secrets are 256 random bits, so a fast hash is as
 * strong as a slow KDF here (nothing to brute-force) and keeps the token endpoint fast.
 */
export async function hashSecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(secret))
  return 'sha256$' + toBase64Url(new Uint8Array(digest))
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export async function verifySecret(secret: string, storedHash: string): Promise<boolean> {
  return constantTimeEqual(await hashSecret(secret), storedHash)
}

/** Compares two strings without an early exit, so the time taken does not reveal where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a)
  const right = encoder.encode(b)
  let difference = left.length ^ right.length
  const length = Math.max(left.length, right.length)
  for (let i = 0; i < length; i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0)
  return difference === 0
}
