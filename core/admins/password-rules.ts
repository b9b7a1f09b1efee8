/**
 * A console password: at least 12 characters (NIST SP 800-63B's floor for a password chosen alone is 8;
 * OWASP's ASVS asks 12), at most 256, so that a pass phrase from any password manager fits and a
 * megabyte pasted into the field is refused before it is hashed. Counted in code points, after NFC.
 */
export const PASSWORD_LENGTH = { min: 12, max: 256 } as const

export type PasswordProblem = 'password-too-short' | 'password-too-long'

/** Why a chosen password is refused, or `null` when it is acceptable. */
export function passwordProblem(password: string): PasswordProblem | null {
  const length = [...password.normalize('NFC')].length
  if (length < PASSWORD_LENGTH.min) return 'password-too-short'
  if (length > PASSWORD_LENGTH.max) return 'password-too-long'
  return null
}
