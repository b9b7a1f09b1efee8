import { ProblemError, StorageConflict, validationFailed, type FieldError } from '../errors.ts'
import type { IssuerContext } from '../context.ts'
import type { Club } from './club.ts'
import { hasControlCharacter, hasLoneSurrogate } from '../validation/plain-text.ts'

export interface CreateClubInput {
  domain: string
  name: string
  canIssue?: boolean
}

/** A club domain is one lower-case DNS label: it names the share-page host `{club}.{share_url_host}`. */
export const CLUB_DOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

export async function createClub(ctx: IssuerContext, input: CreateClubInput): Promise<Club> {
  const errors: FieldError[] = []
  if (typeof input.domain !== 'string' || !CLUB_DOMAIN.test(input.domain)) {
    errors.push({ message: 'invalid-club-domain', path: 'domain' })
  }
  const name = typeof input.name === 'string' ? input.name.trim() : ''
  if (name.length === 0 || name.length > 200) errors.push({ message: 'invalid-club-name', path: 'name' })
  // The club name is the issuer name signed into every credential: the text rule of every other name.
  else if (hasControlCharacter(name, 'single-line')) errors.push({ message: 'control-character', path: 'name' })
  else if (hasLoneSurrogate(name)) errors.push({ message: 'lone-surrogate', path: 'name' })
  if (errors.length > 0) throw validationFailed(errors)

  const club: Club = {
    domain: input.domain,
    name,
    canIssue: input.canIssue ?? true,
    issuerVerified: false,
    createdAt: ctx.clock.now(),
  }
  try {
    await ctx.storage.transaction((tx) => tx.clubs.insert(club), { club: club.domain })
  } catch (error) {
    if (error instanceof StorageConflict) {
      throw new ProblemError('conflict', { detail: `The club ${club.domain} exists already.`, cause: error })
    }
    throw error
  }
  return club
}
