import { ProblemError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import type { Club } from './club.ts'

/** Sets the platform-controlled flags of a club: the `issuerVerified` attestation and `canIssue`. */
export async function updateClubFlags(ctx: IssuerContext, domain: string, changes: Partial<Pick<Club, 'issuerVerified' | 'canIssue'>>): Promise<Club> {
  const club = await ctx.storage.transaction((tx) => tx.clubs.update(domain, changes), { club: domain })
  if (!club) throw new ProblemError('club-not-found', { detail: `There is no club ${domain}.` })
  return club
}
