/** A passkey of an admin: a WebAuthn credential it may log in with (docs/admin-console.md § Passkeys). */
export interface AdminPasskey {
  /** `pk_` and 24 hex digits: the console's handle of the passkey (the account page's remove form). */
  id: string
  /** The authenticator's credential id, base64url; unique across every admin and club. */
  credentialId: string
  /** The credential's COSE public key, base64url. */
  publicKey: string
  /** The signature counter last seen; 0 for an authenticator that keeps none. */
  counter: number
  /** Where the authenticator was reached (`internal`, `hybrid`, `usb`...), as the browser said. */
  transports: string[]
  adminId: string
  /** The admin's club when the passkey was registered; a login opens a session of this club only. */
  club: string
  /** The admin's own label for it ("Work laptop"). */
  name: string
  createdAt: number
  /** The last login with it (ms), or `null` before the first. */
  lastUsedAt: number | null
}

/** What a passkey ceremony's challenge is for. */
export type PasskeyPurpose = 'setup' | 'register' | 'login'

/**
 * A challenge handed out for one ceremony (docs/admin-console.md § Passkeys): stored until it is used
 * once or expires, so that any node can check it.
 */
export interface PasskeyChallenge {
  /** The challenge as sent, base64url of 32 random bytes. */
  challenge: string
  purpose: PasskeyPurpose
  /**
   * What it is bound to: `setup`, the admin id and the setup token's hash (a reset or a used link ends
   * it); `register`, the session id's hash (logout ends it); `login`, the e-mail typed, or `''`.
   */
  boundTo: string
  expiresAt: number
}
