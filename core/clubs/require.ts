import { ProblemError } from '../errors.ts'
import type { Stores } from '../ports/storage.ts'
import type { Club } from './club.ts'

/** The club, or 404 `club-not-found` (reached only when a token outlives its club's data). */
export async function requireClub(stores: Stores, domain: string): Promise<Club> {
  const club = await stores.clubs.findByDomain(domain)
  if (!club) throw new ProblemError('club-not-found', { detail: `There is no club ${domain}.` })
  return club
}
