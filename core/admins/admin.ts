/** A person who may use the staff console of one club (docs/admin-console.md § Who gets in). */
export interface Admin {
  /** `adm_` and 24 hex digits; the key of the login failure window too. */
  id: string
  club: string
  /** Trimmed and lower case; unique across every club, since the login form asks for no club. */
  email: string
  name: string
  /** The PasswordHasher's encoded hash; `null` until the setup link is used, and after a reset. */
  passwordHash: string | null
  /** `sha256$…` of the one-time setup token, or `null` when none is outstanding. */
  setupTokenHash: string | null
  /** When the setup token stops working (ms); `null` with `setupTokenHash`. */
  setupExpiresAt: number | null
  createdAt: number
}

/**
 * Failed logins of one admin in the current fixed window (the same counting as failed client
 * authentications: docs/decisions/0005-client-authentication-rate-limit.md).
 */
export interface AdminLoginFailureWindow {
  failures: number
  /** When the window ends (ms); from then on the next failure starts a new one. */
  endsAt: number
}
