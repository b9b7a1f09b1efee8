import { StorageConflict } from '../errors.ts'
import { hashSecret } from '../crypto/secret-hash.ts'
import { findSetup } from './setup.ts'
import { issueChallenge, relyingPartyOf, takeChallenge } from './passkey-challenges.ts'
import { passkeyViewOf, type PasskeyView } from './passkey-account.ts'
import type { ConsoleContext } from '../context.ts'
import type { Admin } from './admin.ts'
import type { AdminPasskey, PasskeyPurpose } from './passkey.ts'
import type { ConsoleSession } from './sessions.ts'
import type { PasskeyVerifier } from '../ports/passkey-verifier.ts'

/** An admin has at most this many passkeys: enough for every device a person uses, and a bound on the rows. */
export const MAX_PASSKEYS = 10
/** A passkey's name: at most 64 characters, no control characters; empty is "Passkey" and the day. */
const NAME_MAX = 64

export type PasskeyRefusal = 'invalid-link' | 'invalid-name' | 'too-many' | 'refused' | 'exists'
export type PasskeyOptionsOutcome = { ok: true; options: Record<string, unknown> } | { ok: false; reason: PasskeyRefusal }
export type PasskeyRegistrationOutcome = { ok: true; passkey: PasskeyView } | { ok: false; reason: PasskeyRefusal }

/** Who a registration is for and what its challenge is bound to. */
interface Registrant {
  admin: Admin
  purpose: PasskeyPurpose
  boundTo: string
}

/** Through a setup link that still works: bound to the admin and the token, so that a reset or the password set ends it. */
async function setupRegistrant(ctx: ConsoleContext, token: string): Promise<Registrant | null> {
  const admin = await findSetup(ctx, token)
  return admin ? { admin, purpose: 'setup', boundTo: `${admin.id} ${admin.setupTokenHash}` } : null
}

/** In a session: bound to the admin and the session (by its CSRF token's hash), so that logout ends it. */
async function sessionRegistrant(ctx: ConsoleContext, session: ConsoleSession): Promise<Registrant | null> {
  const admin = await ctx.storage.admins.findById(session.adminId)
  if (!admin || admin.club !== session.club) return null
  return { admin, purpose: 'register', boundTo: `${admin.id} ${await hashSecret(session.csrfToken)}` }
}

/** The name as stored, or `null` when refused. */
export function passkeyName(ctx: ConsoleContext, input: string): string | null {
  const name = input.normalize('NFC').trim()
  if (name === '') return `Passkey ${new Date(ctx.clock.now()).toISOString().slice(0, 10)}`
  // eslint-disable-next-line no-control-regex
  if ([...name].length > NAME_MAX || /[\u0000-\u001f\u007f-\u009f]/.test(name)) return null
  return name
}

async function optionsFor(ctx: ConsoleContext, verifier: PasskeyVerifier, registrant: Registrant | null, name: string): Promise<PasskeyOptionsOutcome> {
  if (!registrant) return { ok: false, reason: 'invalid-link' }
  if (passkeyName(ctx, name) === null) return { ok: false, reason: 'invalid-name' }
  const { admin } = registrant
  const existing = await ctx.storage.adminPasskeys.listByAdmin(admin.id)
  if (existing.length >= MAX_PASSKEYS) return { ok: false, reason: 'too-many' }
  const challenge = await issueChallenge(ctx, registrant.purpose, registrant.boundTo)
  const options = await verifier.creationOptions({
    relyingParty: relyingPartyOf(ctx),
    challenge,
    userId: admin.id,
    userName: admin.email,
    userDisplayName: admin.name,
    excludeCredentialIds: existing.map((passkey) => passkey.credentialId),
  })
  return { ok: true, options }
}

async function register(
  ctx: ConsoleContext,
  verifier: PasskeyVerifier,
  registrant: Registrant | null,
  input: { name: string; response: unknown },
): Promise<PasskeyRegistrationOutcome> {
  if (!registrant) return { ok: false, reason: 'invalid-link' }
  const name = passkeyName(ctx, input.name)
  if (name === null) return { ok: false, reason: 'invalid-name' }
  const challenge = await takeChallenge(ctx, input.response, registrant.purpose, registrant.boundTo)
  if (challenge === null) return { ok: false, reason: 'refused' }
  const checked = await verifier.verifyRegistration({ relyingParty: relyingPartyOf(ctx), challenge, response: input.response })
  if (!checked.ok) return { ok: false, reason: 'refused' }
  const { admin } = registrant
  const passkey: AdminPasskey = {
    id: 'pk_' + Array.from(ctx.random.bytes(12), (byte) => byte.toString(16).padStart(2, '0')).join(''),
    credentialId: checked.credentialId,
    publicKey: checked.publicKey,
    counter: checked.counter,
    transports: checked.transports,
    adminId: admin.id,
    club: admin.club,
    name,
    createdAt: ctx.clock.now(),
    lastUsedAt: null,
  }
  try {
    const refusal = await ctx.storage.transaction(async (tx): Promise<PasskeyRefusal | null> => {
      // Read again inside the unit: the admin may have been removed or reset while the person answered.
      const current = await tx.admins.findById(admin.id)
      if (!current || current.club !== admin.club || (registrant.purpose === 'setup' && current.setupTokenHash !== admin.setupTokenHash)) return 'invalid-link'
      if ((await tx.adminPasskeys.listByAdmin(admin.id)).length >= MAX_PASSKEYS) return 'too-many'
      await tx.adminPasskeys.insert(passkey)
      return null
    })
    return refusal ? { ok: false, reason: refusal } : { ok: true, passkey: passkeyViewOf(passkey) }
  } catch (error) {
    if (error instanceof StorageConflict) return { ok: false, reason: 'exists' }
    throw error
  }
}

/** The creation options for a passkey registered through a setup link (which stays usable for the password). */
export async function setupPasskeyOptions(
  ctx: ConsoleContext,
  verifier: PasskeyVerifier,
  input: { token: string; name: string },
): Promise<PasskeyOptionsOutcome> {
  return optionsFor(ctx, verifier, await setupRegistrant(ctx, input.token), input.name)
}

/** Registers a passkey through a setup link that still works. */
export async function registerSetupPasskey(
  ctx: ConsoleContext,
  verifier: PasskeyVerifier,
  input: { token: string; name: string; response: unknown },
): Promise<PasskeyRegistrationOutcome> {
  return register(ctx, verifier, await setupRegistrant(ctx, input.token), input)
}

/** The creation options for a passkey a signed-in admin adds. */
export async function sessionPasskeyOptions(
  ctx: ConsoleContext,
  verifier: PasskeyVerifier,
  session: ConsoleSession,
  name: string,
): Promise<PasskeyOptionsOutcome> {
  return optionsFor(ctx, verifier, await sessionRegistrant(ctx, session), name)
}

/** Registers a passkey of a signed-in admin. */
export async function registerSessionPasskey(
  ctx: ConsoleContext,
  verifier: PasskeyVerifier,
  session: ConsoleSession,
  input: { name: string; response: unknown },
): Promise<PasskeyRegistrationOutcome> {
  return register(ctx, verifier, await sessionRegistrant(ctx, session), input)
}
