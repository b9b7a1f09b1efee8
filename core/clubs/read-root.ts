import * as v from 'valibot'
import { ProblemError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import type { Principal } from '../tokens/principal.ts'

/** The club root of docs/api.md §4.2. `grantedOperations` lists the scope names of the caller's token. */
export const clubRootSchema = v.object({
  domain: v.string(),
  name: v.string(),
  canIssue: v.boolean(),
  grantedOperations: v.array(v.string()),
})
export type ClubRoot = v.InferOutput<typeof clubRootSchema>

export async function readClubRoot(ctx: IssuerContext, principal: Principal): Promise<ClubRoot> {
  const club = await ctx.storage.clubs.findByDomain(principal.club)
  if (!club) throw new ProblemError('club-not-found', { detail: `There is no club ${principal.club}.` })
  return { domain: club.domain, name: club.name, canIssue: club.canIssue, grantedOperations: [...principal.scopes] }
}
