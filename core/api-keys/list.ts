import { ProblemError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import type { ApiKeyRecord } from './api-key.ts'

/** An API key as an administrator sees it: never its secret, nor the secret's hash. */
export interface ApiKeyView {
  /** The 16 hex digits after `cck_` in the key. */
  id: string
  createdAt: string
  revokedAt: string | null
}

export const presentApiKey = (key: ApiKeyRecord): ApiKeyView => ({
  id: key.id,
  createdAt: new Date(key.createdAt).toISOString(),
  revokedAt: key.revokedAt === null ? null : new Date(key.revokedAt).toISOString(),
})

/** The club's legacy API keys, oldest first, revoked ones included (with when). 404 for an unknown club. */
export async function listApiKeys(ctx: IssuerContext, club: string): Promise<{ club: string; api_keys: ApiKeyView[] }> {
  if (!(await ctx.storage.clubs.findByDomain(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
  return { club, api_keys: (await ctx.storage.apiKeys.listByClub(club)).map(presentApiKey) }
}
