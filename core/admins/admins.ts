import { createAdmin, listAdmins, removeAdmin, resetAdmin, type AdminSetupLink, type AdminView } from './manage.ts'
import { completeSetup, findSetup, type SetupOutcome } from './setup.ts'
import { login, type LoginOutcome } from './login.ts'
import { closeSession, readSession, type ConsoleSession } from './sessions.ts'
import { readOverview, type ClubOverview } from './overview.ts'
import { createLoginLimiter } from './login-limiter.ts'
import type { IssuerContext } from '../context.ts'
import type { PasswordHasher } from '../ports/password-hasher.ts'

/** The staff console's accounts, logins and sessions (docs/admin-console.md); the HTTP face is adapters/http/admin/. */
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
  /** Sets the password through a setup link. */
  completeSetup(input: { token: string; password: string; confirmation: string }): Promise<SetupOutcome>
  /** Checks e-mail and password (limited per account and per address) and opens a session. */
  login(input: { email: string; password: string; address: string }): Promise<LoginOutcome>
  /** The live session of a cookie's id, or `null`. */
  session(sessionId: string): Promise<ConsoleSession | null>
  /** Ends a session. */
  logout(sessionId: string): Promise<void>
  /** The overview of a session's club. */
  overview(session: ConsoleSession): Promise<ClubOverview | null>
}

/** Binds the console's operations to the issuer's ports and the password hasher. */
export function createAdmins(ctx: IssuerContext, hasher: PasswordHasher): Admins {
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
  }
}
