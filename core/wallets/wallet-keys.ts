import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import { fromBase64Url } from '../crypto/base64url.ts'
import { PLATFORM_KEY_OWNER } from '../tokens/issue.ts'
import type { IssuerContext } from '../context.ts'

/**
 * What a wallet token is for. Each purpose has its own key, so a token of one purpose can never pass as
 * another, and none passes as an API access token (those are ES256 under the platform key itself).
 */
export type WalletTokenPurpose = 'pre-authorized-code' | 'access-token' | 'c-nonce' | 'lcw-exchange'

/** The `typ` of each purpose's JWT (explicit typing, RFC 8725 §3.11). */
const TYP: Record<WalletTokenPurpose, string> = {
  'pre-authorized-code': 'oid4vci-code+jwt',
  'access-token': 'at+jwt',
  'c-nonce': 'oid4vci-nonce+jwt',
  'lcw-exchange': 'lcw-exchange+jwt',
}

export interface WalletKeys {
  /** Signs `claims` for `purpose`, issued now by the issuer's clock and expiring after `ttlSeconds`. */
  sign(purpose: WalletTokenPurpose, claims: JWTPayload & { iss: string }, ttlSeconds: number): Promise<string>
  /**
   * The claims of a token of `purpose` from `issuer`, or `null` when it is malformed, of another purpose,
   * signed under another key or expired (by the issuer's clock, no leeway).
   */
  verify(purpose: WalletTokenPurpose, token: string, issuer: string): Promise<JWTPayload | null>
}

/**
 * The HMAC keys of the stateless wallet tokens (docs/decisions/0035-wallets-oid4vci.md): HKDF-SHA-256
 * over the platform signing key's private scalar, one key per purpose, so every process on the same storage
 * derives the same keys and nothing new is stored. Tokens name the platform key they were derived from
 * (`kid`); after a platform key rotation the old ones stop verifying, which costs at most their ten minutes.
 */
export function createWalletKeys(ctx: IssuerContext): WalletKeys {
  // One per platform key and purpose: a handful of entries over the life of a deployment.
  const derived = new Map<string, Promise<CryptoKey>>()
  const keyOf = (kid: string, d: string, purpose: WalletTokenPurpose) => {
    const cacheKey = `${kid} ${purpose}`
    let key = derived.get(cacheKey)
    if (!key) {
      key = deriveKey(d, purpose)
      derived.set(cacheKey, key)
    }
    return key
  }
  const active = async (purpose: WalletTokenPurpose) => {
    const platform = await ctx.keys.activeKey(PLATFORM_KEY_OWNER)
    if (typeof platform.privateJwk.d !== 'string') throw new TypeError('the platform key has no private scalar')
    return { kid: platform.kid, key: await keyOf(platform.kid, platform.privateJwk.d, purpose) }
  }

  return {
    async sign(purpose, claims, ttlSeconds) {
      const { kid, key } = await active(purpose)
      const issuedAt = Math.floor(ctx.clock.now() / 1000)
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: TYP[purpose], kid })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(key)
    },
    async verify(purpose, token, issuer) {
      const { kid, key } = await active(purpose)
      try {
        const { payload, protectedHeader } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          typ: TYP[purpose],
          issuer,
          currentDate: new Date(ctx.clock.now()),
          requiredClaims: ['iat', 'exp', 'jti'],
        })
        return protectedHeader.kid === kid ? payload : null
      } catch (error) {
        if (error instanceof errors.JOSEError) return null
        throw error
      }
    },
  }
}

async function deriveKey(d: string, purpose: WalletTokenPurpose): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', fromBase64Url(d), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode(`clubcred oid4vci ${purpose}`) },
    material,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  )
}
