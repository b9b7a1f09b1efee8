/**
 * The credential's `validUntil` (ms) for an issuance's `expiresAt`: rounded up to the whole second, since
 * JWT times are whole seconds and `validUntil` must convert into `exp` exactly. Known when the issuance
 * is stored, so storage keeps it on the issuance too, where the status filter compares it with the time.
 */
export function validUntilOf(expiresAt: number | null): number | null {
  return expiresAt === null ? null : Math.ceil(expiresAt / 1000) * 1000
}
