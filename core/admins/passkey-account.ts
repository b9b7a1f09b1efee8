import type { ConsoleContext } from '../context.ts'
import type { AdminPasskey } from './passkey.ts'
import type { ConsoleSession } from './sessions.ts'

/** A passkey as the account page shows it: never its key or credential id. */
export interface PasskeyView {
  id: string
  name: string
  createdAt: number
  lastUsedAt: number | null
}

export const passkeyViewOf = ({ id, name, createdAt, lastUsedAt }: AdminPasskey): PasskeyView => ({ id, name, createdAt, lastUsedAt })

/** The session admin's passkeys, oldest first. */
export async function listPasskeys(ctx: ConsoleContext, session: ConsoleSession): Promise<PasskeyView[]> {
  return (await ctx.storage.adminPasskeys.listByAdmin(session.adminId)).map(passkeyViewOf)
}

/** Removes one of the session admin's passkeys; `false` for an id that is not one of them (another admin's included). */
export async function removePasskey(ctx: ConsoleContext, session: ConsoleSession, id: string): Promise<boolean> {
  if (!/^pk_[0-9a-f]{24}$/.test(id)) return false
  return ctx.storage.transaction((tx) => tx.adminPasskeys.delete(session.adminId, id), { concurrent: true })
}
