import { fromBase64Url, toBase64Url } from './base64url.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * AES-256-GCM sealing of private keys at rest. The key id is the additional authenticated data, so a
 * sealed key copied onto another key's row fails to open.
 */
export interface Sealer {
  seal(plaintext: string, associatedData: string): Promise<string>
  open(sealed: string, associatedData: string): Promise<string>
}

/** A sealer keyed by a 32-byte master key. Sealed text: `v1.<iv>.<ciphertext+tag>`, base64url parts. */
export async function createSealer(masterKey: Uint8Array): Promise<Sealer> {
  if (masterKey.length !== 32) throw new TypeError('the master key must be 32 bytes')
  const key = await crypto.subtle.importKey('raw', new Uint8Array(masterKey), 'AES-GCM', false, ['encrypt', 'decrypt'])
  return {
    async seal(plaintext, associatedData) {
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(associatedData) }, key, encoder.encode(plaintext))
      return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ciphertext))}`
    },
    async open(sealed, associatedData) {
      const [version, iv, ciphertext] = sealed.split('.')
      if (version !== 'v1' || !iv || !ciphertext) throw new TypeError('not a sealed value')
      const plaintext = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: encoder.encode(associatedData) },
        key,
        fromBase64Url(ciphertext),
      )
      return decoder.decode(plaintext)
    },
  }
}
