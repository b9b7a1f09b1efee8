import { hashSecret } from '../crypto/secret-hash.ts'
import { passwordProblem, type PasswordProblem } from './password-rules.ts'
import type { ConsoleContext } from '../context.ts'
import type { PasswordHasher } from '../ports/password-hasher.ts'
import type { Admin } from './admin.ts'
import { openSession, type ConsoleSession } from './sessions.ts'

export type SetupOutcome =
  { ok: true; email: string; sessionId: string; session: ConsoleSession } | { ok: false; reason: 'invalid-link' | PasswordProblem | 'passwords-differ' }

/**
 * The admin a setup token belongs to while it works (not used, not replaced by a reset, not past its
 * 24 hours), else `null`. Looked up by the token's hash: the equality is the database's on a hash of
 * 256 random bits, which tells an attacker timing nothing they could use.
 */
export async function findSetup(ctx: ConsoleContext, token: string): Promise<Admin | null> {
  if (token.length === 0 || token.length > 100) return null
  const admin = await ctx.storage.admins.findBySetupTokenHash(await hashSecret(token))
  if (!admin || admin.setupExpiresAt === null || ctx.clock.now() >= admin.setupExpiresAt) return null
  return admin
}

/**
 * Sets the admin's password through the setup link, which then stops working, and signs the person in
 * with a fresh session, as a login does: they just proved they hold the link, and asking for the
 * password they typed a moment ago proves nothing more. The link also lifts the account's login lock
 * (decision 0042): whoever holds an `admin reset` link always has a way in.
 */
export async function completeSetup(
  ctx: ConsoleContext,
  hasher: PasswordHasher,
  input: { token: string; password: string; confirmation: string },
): Promise<SetupOutcome> {
  const admin = await findSetup(ctx, input.token)
  if (!admin) return { ok: false, reason: 'invalid-link' }
  const problem = passwordProblem(input.password)
  if (problem) return { ok: false, reason: problem }
  if (input.password !== input.confirmation) return { ok: false, reason: 'passwords-differ' }
  const passwordHash = await hasher.hash(input.password)
  // Only while the token is still this one: of two uses of one link racing, one wins.
  const set = await ctx.storage.transaction(
    async (tx) => {
      const done = await tx.admins.setPassword(admin.id, admin.setupTokenHash!, passwordHash)
      if (done) await tx.admins.clearLoginFailures(admin.id)
      return done
    },
    { concurrent: true },
  )
  if (!set) return { ok: false, reason: 'invalid-link' }
  return { ok: true, email: admin.email, ...(await openSession(ctx, admin)) }
}
