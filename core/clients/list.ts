import { ProblemError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import type { ScopeName } from '../scopes.ts'

/** An API client as an administrator sees it: never its secret, nor the secret's hash. */
export interface ClientView {
  client_id: string
  scopes: ScopeName[]
  createdAt: string
  /** When the current secret was set: the creation, or the last rotation. */
  secretSetAt: string
  /**
   * Seconds until the token endpoint takes this client's secret again, after too many failed
   * authentications (docs/decisions/0005-client-authentication-rate-limit.md); 0 when it takes it now.
   */
  lockedForSeconds: number
}

/** The club's API clients, oldest first. 404 `club-not-found` for an unknown club. */
export async function listClients(ctx: IssuerContext, club: string): Promise<ClientView[]> {
  if (!(await ctx.storage.clubs.findByDomain(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
  const clients = await ctx.storage.clients.listByClub(club)
  return Promise.all(
    clients.map(async (client) => ({
      client_id: client.id,
      scopes: [...client.scopes],
      createdAt: new Date(client.createdAt).toISOString(),
      secretSetAt: new Date(client.secretSetAt).toISOString(),
      lockedForSeconds: await ctx.clientAuthFailures.retryAfter(client.id),
    })),
  )
}
