import { adminEmail } from './email.ts'
import { PASSWORD_LENGTH } from './password-rules.ts'
import { openSession, type ConsoleSession } from './sessions.ts'
import type { ConsoleContext } from '../context.ts'
import type { PasswordHasher } from '../ports/password-hasher.ts'
import type { LoginLimiter } from './login-limiter.ts'

export type LoginOutcome =
  { ok: true; sessionId: string; session: ConsoleSession } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'locked'; retryAfter: number }

/**
 * Checks an e-mail and password and opens a session. The answer never tells whether the e-mail is an
 * admin's: an unknown e-mail, an account still waiting for its setup and a wrong password all get
 * `invalid`, after the same work (a hash checked against a dummy when there is no hash to check).
 */
export async function login(
  ctx: ConsoleContext,
  { hasher, limiter, dummyHash }: { hasher: PasswordHasher; limiter: LoginLimiter; dummyHash: () => Promise<string> },
  input: { email: string; password: string; address: string },
): Promise<LoginOutcome> {
  let email: string
  try {
    email = adminEmail(input.email)
  } catch {
    email = input.email.slice(0, 254).trim().toLowerCase()
  }
  const admin = await ctx.storage.admins.findByEmail(email)
  const account = { email, adminId: admin?.id ?? null }
  const retryAfter = await limiter.retryAfter(account, input.address)
  if (retryAfter > 0) return { ok: false, reason: 'locked', retryAfter }
  // A password longer than any that can be set is never hashed (a megabyte through scrypt costs time), yet counts as a failure.
  const password = [...input.password].length <= PASSWORD_LENGTH.max ? input.password : null
  const stored = admin?.passwordHash ?? null
  const matches = stored !== null && password !== null ? await hasher.verify(password, stored) : (await hasher.verify(password ?? '', await dummyHash()), false)
  if (!matches || !admin) {
    await limiter.recordFailure(account, input.address)
    return { ok: false, reason: 'invalid' }
  }
  await limiter.recordSuccess(account, input.address)
  // The parameters were raised since this hash was made: the password is at hand now, and only now.
  if (stored !== null && password !== null && hasher.needsRehash?.(stored)) {
    const rehashed = await hasher.hash(password)
    await ctx.storage.transaction((tx) => tx.admins.replacePasswordHash(admin.id, stored, rehashed), { concurrent: true })
  }
  return { ok: true, ...(await openSession(ctx, admin)) }
}
