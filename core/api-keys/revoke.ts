import { ProblemError } from '../errors.ts'
import { presentApiKey, type ApiKeyView } from './list.ts'
import type { IssuerContext } from '../context.ts'

/**
 * Revokes a legacy API key by its id (the 16 hex digits after `cck_`): from then on it is refused like
 * any bad key (docs/api.md §7.5: 401 `Invalid token`), since every legacy request looks the key up. Revoking a
 * revoked key changes nothing and answers the first revocation. 404 `api-key-not-found` otherwise.
 */
export async function revokeApiKey(ctx: IssuerContext, id: string): Promise<ApiKeyView & { club: string }> {
  const key = await ctx.storage.transaction(
    async (tx) => {
      await tx.apiKeys.revoke(id, ctx.clock.now())
      return tx.apiKeys.findById(id)
    },
    { concurrent: true },
  )
  if (!key) throw new ProblemError('api-key-not-found', { detail: `There is no API key ${id}.` })
  return { ...presentApiKey(key), club: key.club }
}
