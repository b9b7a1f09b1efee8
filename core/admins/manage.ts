import { ProblemError, StorageConflict } from '../errors.ts'
import { hashSecret } from '../crypto/secret-hash.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import { adminEmail } from './email.ts'
import type { ConsoleContext } from '../context.ts'
import type { Admin } from './admin.ts'
import type { ConsoleUnitOfWork } from '../ports/storage.ts'

/** What `admin create` and `admin reset` print: the only time the setup link is shown. */
export interface AdminSetupLink {
  email: string
  name: string
  club: string
  /** `{public_url}/admin/setup?token=…`: one use, until `expiresAt`. */
  setupUrl: string
  expiresAt: string
}

/** What `admin list` prints of each admin: never a hash or a token. */
export interface AdminView {
  email: string
  name: string
  club: string
  /** `active` once a password is set; `pending` while only a setup link exists (new, or reset). */
  state: 'active' | 'pending'
  createdAt: string
}

/** Where a setup link points; the console's pages live under `{public_url}/admin/`. */
export const adminSetupUrl = (ctx: ConsoleContext, token: string) => `${ctx.config.urls.public}/admin/setup?token=${encodeURIComponent(token)}`

/** A fresh setup token: 256 random bits behind a prefix that secret scanners can match. */
const newSetupToken = (ctx: ConsoleContext) => 'ccsetup_' + toBase64Url(ctx.random.bytes(32))

export async function createAdmin(ctx: ConsoleContext, input: { club: string; email: string; name?: string | null }): Promise<AdminSetupLink> {
  const email = adminEmail(input.email)
  const name = (input.name ?? '').trim() || email.split('@')[0]!
  const token = newSetupToken(ctx)
  const now = ctx.clock.now()
  const admin: Admin = {
    id: 'adm_' + Array.from(ctx.random.bytes(12), (byte) => byte.toString(16).padStart(2, '0')).join(''),
    club: input.club,
    email,
    name,
    passwordHash: null,
    setupTokenHash: await hashSecret(token),
    setupExpiresAt: now + ctx.config.adminConsole.setupLinkSeconds * 1000,
    createdAt: now,
  }
  await ctx.storage.transaction(
    async (tx) => {
      if (!(await tx.clubs.findByDomain(input.club))) throw new ProblemError('club-not-found', { detail: `There is no club ${input.club}.` })
      try {
        await tx.admins.insert(admin)
      } catch (error) {
        if (!(error instanceof StorageConflict)) throw error
        // One address, one club: the login form asks for no club (docs/admin-console.md § Who gets in).
        throw new ProblemError('conflict', { detail: `${email} is an admin already (of this or another club).`, cause: error })
      }
    },
    { club: input.club },
  )
  return setupLinkOf(ctx, admin, token)
}

/**
 * A new setup link; the old link, the old password and the admin's passkeys stop working (a reset is for
 * lost or leaked credentials: the admin registers passkeys anew), and every session of the admin ends.
 */
export async function resetAdmin(ctx: ConsoleContext, input: { club: string; email: string }): Promise<AdminSetupLink> {
  const token = newSetupToken(ctx)
  const tokenHash = await hashSecret(token)
  const expiresAt = ctx.clock.now() + ctx.config.adminConsole.setupLinkSeconds * 1000
  const admin = await ctx.storage.transaction(async (tx) => {
    const found = await requireAdmin(tx, input)
    await tx.admins.resetSetup(found.id, tokenHash, expiresAt)
    await tx.adminSessions.deleteByAdmin(found.id)
    await tx.adminPasskeys.deleteByAdmin(found.id)
    return { ...found, setupExpiresAt: expiresAt }
  })
  return setupLinkOf(ctx, admin, token)
}

export async function listAdmins(ctx: ConsoleContext, club: string): Promise<{ club: string; admins: AdminView[] }> {
  if (!(await ctx.storage.clubs.findByDomain(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
  const admins = await ctx.storage.admins.listByClub(club)
  return {
    club,
    admins: admins.map((admin) => ({
      email: admin.email,
      name: admin.name,
      club: admin.club,
      state: admin.passwordHash === null ? 'pending' : 'active',
      createdAt: new Date(admin.createdAt).toISOString(),
    })),
  }
}

/** Deletes the admin; its sessions end in the same unit, so its next request is already signed out. */
export async function removeAdmin(ctx: ConsoleContext, input: { club: string; email: string }): Promise<{ removed: true; email: string; club: string }> {
  await ctx.storage.transaction(async (tx) => {
    const found = await requireAdmin(tx, input)
    await tx.admins.delete(found.id)
  })
  return { removed: true, email: adminEmail(input.email), club: input.club }
}

/** The admin of that e-mail in that club; one of another club is `admin-not-found` as well. */
async function requireAdmin(tx: ConsoleUnitOfWork, { club, email }: { club: string; email: string }): Promise<Admin> {
  const found = await tx.admins.findByEmail(adminEmail(email))
  if (!found || found.club !== club) throw new ProblemError('admin-not-found', { detail: `There is no admin ${email} in club ${club}.` })
  return found
}

function setupLinkOf(ctx: ConsoleContext, admin: Admin, token: string): AdminSetupLink {
  return {
    email: admin.email,
    name: admin.name,
    club: admin.club,
    setupUrl: adminSetupUrl(ctx, token),
    expiresAt: new Date(admin.setupExpiresAt!).toISOString(),
  }
}
