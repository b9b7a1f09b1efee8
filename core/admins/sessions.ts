import { hashSecret } from '../crypto/secret-hash.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import type { ConsoleContext } from '../context.ts'
import type { Admin } from './admin.ts'

/** Who a request's session is: every console page acts for `club` and no other. */
export interface ConsoleSession {
  adminId: string
  email: string
  name: string
  club: string
  /** The CSRF token every form of this session carries (a hidden field), derived from the session id. */
  csrfToken: string
}

/** `lastSeenAt` is written at most this often: the idle timeout is kept to the minute, not a write a request. */
const TOUCH_EVERY_MS = 60_000

/** A new session id (32 random bytes, base64url): only the cookie holds it, the storage its hash. */
export const newSessionId = (ctx: ConsoleContext) => toBase64Url(ctx.random.bytes(32))

/**
 * The CSRF token of a session: a hash of its id under a label of its own, so that it is tied to the
 * session, needs no storage, and reveals nothing of the id (whose hash the storage keeps is another).
 */
export async function csrfTokenOf(sessionId: string): Promise<string> {
  return (await hashSecret(`clubcred admin csrf\0${sessionId}`)).slice('sha256$'.length)
}

export async function openSession(ctx: ConsoleContext, admin: Admin): Promise<{ sessionId: string; session: ConsoleSession }> {
  const sessionId = newSessionId(ctx)
  const now = ctx.clock.now()
  const idHash = await hashSecret(sessionId)
  await ctx.storage.transaction((tx) => tx.adminSessions.insert({ idHash, adminId: admin.id, club: admin.club, createdAt: now, lastSeenAt: now }), {
    concurrent: true,
  })
  return { sessionId, session: await sessionView(admin, sessionId) }
}

/**
 * The session of a cookie's id while it lives: not ended by logout, removal or reset, idle for less than
 * 30 minutes and opened less than 12 hours ago (`config.adminConsole`). An ended one is deleted.
 */
export async function readSession(ctx: ConsoleContext, sessionId: string): Promise<ConsoleSession | null> {
  if (sessionId.length !== 43) return null
  const idHash = await hashSecret(sessionId)
  const session = await ctx.storage.adminSessions.findByIdHash(idHash)
  if (!session) return null
  const now = ctx.clock.now()
  const { sessionIdleSeconds, sessionAbsoluteSeconds } = ctx.config.adminConsole
  if (now - session.lastSeenAt >= sessionIdleSeconds * 1000 || now - session.createdAt >= sessionAbsoluteSeconds * 1000) {
    await ctx.storage.transaction((tx) => tx.adminSessions.delete(idHash), { concurrent: true })
    return null
  }
  const admin = await ctx.storage.admins.findById(session.adminId)
  if (!admin || admin.club !== session.club) return null
  if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await ctx.storage.transaction((tx) => tx.adminSessions.touch(idHash, now), { concurrent: true })
  return sessionView(admin, sessionId)
}

/** Ends the session of a cookie's id; harmless when it has ended already. */
export async function closeSession(ctx: ConsoleContext, sessionId: string): Promise<void> {
  const idHash = await hashSecret(sessionId)
  await ctx.storage.transaction((tx) => tx.adminSessions.delete(idHash), { concurrent: true })
}

async function sessionView(admin: Admin, sessionId: string): Promise<ConsoleSession> {
  return { adminId: admin.id, email: admin.email, name: admin.name, club: admin.club, csrfToken: await csrfTokenOf(sessionId) }
}
