/** Credential status values (docs/api.md §2.7, §3). */
export const CREDENTIAL_STATUSES = ['valid', 'expired', 'revoked'] as const
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number]

/**
 * The status of a credential, computed on every read: revoked, else expired (`validUntil` passed),
 * else valid. Revoked wins over expired (docs/api.md §3). The signature is not checked here.
 */
export function credentialStatus(state: { revokedAt: number | null; validUntil: number | null }, now: number): CredentialStatus {
  if (state.revokedAt !== null) return 'revoked'
  if (state.validUntil !== null && now >= state.validUntil) return 'expired'
  return 'valid'
}
