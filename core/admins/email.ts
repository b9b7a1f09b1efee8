import { validationFailed } from '../errors.ts'

/** A plain address check: one `@`, no spaces, a dot in the domain; the setup link proves the rest. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/

/** The e-mail as stored and compared: trimmed, lower case; `validation-failed` when it is not an address. */
export function adminEmail(input: unknown): string {
  const email = typeof input === 'string' ? input.trim().toLowerCase() : ''
  if (email.length > 254 || !EMAIL.test(email)) throw validationFailed([{ message: 'invalid-email', path: 'email' }], 'The e-mail address is not valid.')
  return email
}
