import { toBase64Url } from '../crypto/base64url.ts'
import { adminEmail } from './email.ts'
import { openSession } from './sessions.ts'
import { issueChallenge, relyingPartyOf, takeChallenge } from './passkey-challenges.ts'
import type { ConsoleContext } from '../context.ts'
import type { PasskeyVerifier } from '../ports/passkey-verifier.ts'
import type { LoginLimiter } from './login-limiter.ts'
import type { LoginOutcome } from './login.ts'

export type PasskeyLoginOptionsOutcome = { ok: true; options: Record<string, unknown> } | { ok: false; reason: 'locked'; retryAfter: number }

/** The e-mail a passkey login was started for, as compared; `''` when none was typed. */
function typedEmail(input: string): string {
  if (input.trim() === '') return ''
  try {
    return adminEmail(input)
  } catch {
    // Not an address: then no admin has it, and the login fails as for an unknown e-mail.
    return input.slice(0, 254).trim().toLowerCase()
  }
}

/**
 * The request options of a passkey login: a challenge bound to the e-mail typed (or to none). The
 * options name no credential, whether or not the e-mail is an admin's, so they tell nothing about it:
 * every console passkey is discoverable, and the e-mail is checked against the passkey's admin after.
 */
export async function passkeyLoginOptions(
  ctx: ConsoleContext,
  { verifier, limiter }: { verifier: PasskeyVerifier; limiter: LoginLimiter },
  input: { email: string; address: string },
): Promise<PasskeyLoginOptionsOutcome> {
  // Anyone may ask: each answer is a stored row, so an address gets a share of them and the storage a bound.
  const retryAfter = limiter.takeChallenge(input.address)
  if (retryAfter > 0) return { ok: false, reason: 'locked', retryAfter }
  const challenge = await issueChallenge(ctx, 'login', typedEmail(input.email), ctx.config.adminConsole.challengesKept)
  return { ok: true, options: await verifier.requestOptions({ relyingParty: relyingPartyOf(ctx), challenge }) }
}

/**
 * Logs in with a passkey and opens the same session as a password login. Refused (`invalid`, counted as
 * a failed passkey login of the address): a challenge not
 * given for this login, used already or expired; a credential no admin has (a removed admin's passkeys
 * went with it); a passkey of another e-mail than the one typed; an assertion the verifier refuses
 * (wrong origin or RP ID, no user verification, a bad signature, a counter that went back). An address
 * with too many failed passkey logins is `locked`.
 */
export async function passkeyLogin(
  ctx: ConsoleContext,
  { verifier, limiter }: { verifier: PasskeyVerifier; limiter: LoginLimiter },
  input: { email: string; response: unknown; address: string },
): Promise<LoginOutcome> {
  const email = typedEmail(input.email)
  const credentialId = (input.response as { id?: unknown } | null)?.id
  const passkey = typeof credentialId === 'string' && credentialId.length <= 1400 ? await ctx.storage.adminPasskeys.findByCredentialId(credentialId) : null
  const admin = passkey ? await ctx.storage.admins.findById(passkey.adminId) : null
  // Password failures never hold a passkey login up (decision 0042): it cannot be guessed, and it is the
  // owner's way in while someone else spends the password's tries; only the address's passkey failures count.
  const retryAfter = limiter.passkeyRetryAfter(input.address)
  if (retryAfter > 0) return { ok: false, reason: 'locked', retryAfter }
  const challenge = await takeChallenge(ctx, input.response, 'login', email)
  const userHandle = (input.response as { response?: { userHandle?: unknown } } | null)?.response?.userHandle
  const handleMatches = userHandle === undefined || userHandle === null || userHandle === toBase64UrlText(admin?.id ?? '')
  const checked =
    challenge !== null && passkey && admin && admin.club === passkey.club && (email === '' || email === admin.email) && handleMatches
      ? await verifier.verifyAuthentication({ relyingParty: relyingPartyOf(ctx), challenge, response: input.response, credential: passkey })
      : null
  if (!checked?.ok || !passkey || !admin) {
    limiter.recordPasskeyFailure(input.address)
    return { ok: false, reason: 'invalid' }
  }
  await limiter.recordSuccess({ email: admin.email, adminId: admin.id }, input.address)
  await ctx.storage.transaction((tx) => tx.adminPasskeys.recordUse(passkey.id, checked.counter, ctx.clock.now()), { concurrent: true })
  return { ok: true, ...(await openSession(ctx, admin)) }
}

/** The user handle as the browser sends it back: base64url of the admin id's UTF-8 bytes (passkey-register.ts). */
function toBase64UrlText(text: string): string {
  return toBase64Url(new TextEncoder().encode(text))
}
