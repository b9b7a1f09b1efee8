import { toBase64Url } from '../crypto/base64url.ts'

const encoder = new TextEncoder()

/** The access-token claim that carries the secret binding. */
export const SECRET_BINDING_CLAIM = 'sgen'

/**
 * Binds an access token to the client secret it was obtained with: a digest of the stored secret hash,
 * so it reveals nothing about the secret. A rotation then revokes exactly the tokens of the old secret,
 * also those from the rotation's own second, which `iat` (whole seconds) cannot tell apart.
 */
export async function secretBinding(secretHash: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`clubcred access token binding\0${secretHash}`))
  return toBase64Url(new Uint8Array(digest).subarray(0, 12))
}
