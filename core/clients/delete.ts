import { ProblemError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'

/** Deletes the client; its access tokens stop working at once, since every bearer check looks it up. */
export async function deleteClient(ctx: IssuerContext, clientId: string): Promise<{ deleted: true }> {
  const found = await ctx.storage.transaction((tx) => tx.clients.delete(clientId), { concurrent: true })
  if (!found) throw new ProblemError('client-not-found', { detail: `There is no client ${clientId}.` })
  return { deleted: true }
}
