/** Standard Webhooks secrets and signatures (https://www.standardwebhooks.com/). */

const encoder = new TextEncoder()

const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes))
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

/** A new endpoint secret: `whsec_` and 24 random bytes in base64, as the specification writes them. */
export const newWebhookSecret = (bytes: Uint8Array): string => `whsec_${toBase64(bytes)}`

/**
 * The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, once per
 * secret, separated by spaces (during a rotation both secrets sign, and receivers accept either).
 */
export async function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): Promise<string> {
  const signed = encoder.encode(`${id}.${timestampSeconds}.${body}`)
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const key = await crypto.subtle.importKey('raw', fromBase64(secret.replace(/^whsec_/, '')), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
      return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, signed)))}`
    }),
  )
  return signatures.join(' ')
}
