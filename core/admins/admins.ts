import { createAdmin, listAdmins, removeAdmin, resetAdmin, type AdminSetupLink, type AdminView } from './manage.ts'
import { completeSetup, findSetup, type SetupOutcome } from './setup.ts'
import { login, type LoginOutcome } from './login.ts'
import { closeSession, readSession, type ConsoleSession } from './sessions.ts'
import { readOverview, type ClubOverview } from './overview.ts'
import { createLoginLimiter } from './login-limiter.ts'
import type { ConsoleContext } from '../context.ts'
import type { PasswordHasher } from '../ports/password-hasher.ts'
import type { PasskeyVerifier } from '../ports/passkey-verifier.ts'
import { listPasskeys, removePasskey, type PasskeyView } from './passkey-account.ts'
import { passkeyLogin, passkeyLoginOptions, type PasskeyLoginOptionsOutcome } from './passkey-login.ts'
import {
  registerSessionPasskey,
  registerSetupPasskey,
  sessionPasskeyOptions,
  setupPasskeyOptions,
  type PasskeyOptionsOutcome,
  type PasskeyRegistrationOutcome,
} from './passkey-register.ts'

/** The staff console's accounts, logins and sessions (docs/admin-console.md); the HTTP face is adapters/admin/. */
export interface Admins {
  /** Creates an admin of a club with a one-time setup link (24 h); `club-not-found`, `conflict` (the e-mail is an admin's), `validation-failed`. */
  create(input: { club: string; email: string; name?: string | null }): Promise<AdminSetupLink>
  /** A new setup link; the old link and password stop working and the admin's sessions end. `admin-not-found`. */
  reset(input: { club: string; email: string }): Promise<AdminSetupLink>
  /** The club's admins, never a secret. `club-not-found`. */
  list(club: string): Promise<{ club: string; admins: AdminView[] }>
  /** Removes an admin; its sessions end at once. `admin-not-found`. */
  remove(input: { club: string; email: string }): Promise<{ removed: true; email: string; club: string }>
  /** The e-mail a setup token is for while it works, else `null`. */
  setupFor(token: string): Promise<{ email: string; club: string } | null>
  /** Sets the password through a setup link, clears the account's failed logins and opens a session. */
  completeSetup(input: { token: string; password: string; confirmation: string }): Promise<SetupOutcome>
  /** Checks e-mail and password (limited per account and address, per account by a backoff, per address) and opens a session. */
  login(input: { email: string; password: string; address: string }): Promise<LoginOutcome>
  /** The live session of a cookie's id, or `null`. */
  session(sessionId: string): Promise<ConsoleSession | null>
  /** Ends a session. */
  logout(sessionId: string): Promise<void>
  /** The overview of a session's club. */
  overview(session: ConsoleSession): Promise<ClubOverview | null>
  /** Passkeys (docs/admin-console.md § Passkeys); `null` when the issuer has no `passkeyVerifier`. */
  passkeys: AdminPasskeys | null
}

/** Registering, listing and removing an admin's passkeys, and logging in with one. */
export interface AdminPasskeys {
  /** Creation options through a setup link that still works (`invalid-link`), for a name that is acceptable (`invalid-name`). */
  setupOptions(input: { token: string; name: string }): Promise<PasskeyOptionsOutcome>
  /** Registers a passkey through a setup link; the link stays usable for the password. */
  registerAtSetup(input: { token: string; name: string; response: unknown }): Promise<PasskeyRegistrationOutcome>
  /** Creation options for the session's admin. */
  options(session: ConsoleSession, name: string): Promise<PasskeyOptionsOutcome>
  register(session: ConsoleSession, input: { name: string; response: unknown }): Promise<PasskeyRegistrationOutcome>
  list(session: ConsoleSession): Promise<PasskeyView[]>
  /** `false` for an id that is not one of the session admin's passkeys. */
  remove(session: ConsoleSession, id: string): Promise<boolean>
  /** Request options of a login, bound to the e-mail typed (or none); limited per address, and what is kept bounded. */
  loginOptions(input: { email: string; address: string }): Promise<PasskeyLoginOptionsOutcome>
  /** Logs in with a passkey: the same session as a password login; limited by the address's failed passkey logins only. */
  login(input: { email: string; response: unknown; address: string }): Promise<LoginOutcome>
}

/** Binds the console's operations to the issuer's ports, the password hasher and the passkey verifier. */
export function createAdmins(ctx: ConsoleContext, hasher: PasswordHasher, verifier: PasskeyVerifier | null = null): Admins {
  const limiter = createLoginLimiter({ storage: ctx.storage, clock: ctx.clock, limits: ctx.config.adminConsole })
  // The hash checked when there is none to check, made once with the hasher's own parameters so that it costs the same.
  let dummy: Promise<string> | undefined
  const dummyHash = () => (dummy ??= hasher.hash('clubcred: no such admin'))
  return {
    create: (input) => createAdmin(ctx, input),
    reset: (input) => resetAdmin(ctx, input),
    list: (club) => listAdmins(ctx, club),
    remove: (input) => removeAdmin(ctx, input),
    async setupFor(token) {
      const admin = await findSetup(ctx, token)
      return admin ? { email: admin.email, club: admin.club } : null
    },
    completeSetup: (input) => completeSetup(ctx, hasher, input),
    login: (input) => login(ctx, { hasher, limiter, dummyHash }, input),
    session: (sessionId) => readSession(ctx, sessionId),
    logout: (sessionId) => closeSession(ctx, sessionId),
    overview: (session) => readOverview(ctx, session.club),
    passkeys: verifier && {
      setupOptions: (input) => setupPasskeyOptions(ctx, verifier, input),
      registerAtSetup: (input) => registerSetupPasskey(ctx, verifier, input),
      options: (session, name) => sessionPasskeyOptions(ctx, verifier, session, name),
      register: (session, input) => registerSessionPasskey(ctx, verifier, session, input),
      list: (session) => listPasskeys(ctx, session),
      remove: (session, id) => removePasskey(ctx, session, id),
      loginOptions: (input) => passkeyLoginOptions(ctx, { verifier, limiter }, input),
      login: (input) => passkeyLogin(ctx, { verifier, limiter }, input),
    },
  }
}
