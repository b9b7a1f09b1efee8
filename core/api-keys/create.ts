import { ProblemError } from '../errors.ts'
import { hashSecret, verifySecret } from '../crypto/secret-hash.ts'
import { newSecret } from '../clients/create.ts'
import type { IssuerContext } from '../context.ts'

/**
 * Legacy API keys (docs/api.md §5 items 7 and 10): `cck_<id>.<secret>`, 256 random bits of secret, stored only
 * as a hash. The id part finds the key; the secret is compared in constant time.
 */
export async function createApiKey(ctx: IssuerContext, club: string): Promise<{ api_key: string; club: string }> {
  const id = Array.from(ctx.random.bytes(8), (byte) => byte.toString(16).padStart(2, '0')).join('')
  const secret = newSecret(ctx, '')
  const secretHash = await hashSecret(secret)
  await ctx.storage.transaction(
    async (tx) => {
      if (!(await tx.clubs.findByDomain(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
      await tx.apiKeys.insert({ id, club, secretHash, createdAt: ctx.clock.now(), revokedAt: null })
    },
    { club },
  )
  return { api_key: `cck_${id}.${secret}`, club }
}

/** The club an API key belongs to, or `null` when the key is not a valid one (also when it is revoked). */
export async function authenticateApiKey(ctx: IssuerContext, apiKey: string): Promise<string | null> {
  const match = /^cck_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/.exec(apiKey)
  if (!match) return null
  const record = await ctx.storage.apiKeys.findById(match[1]!)
  // Hash even without a record, so that timing does not tell which key ids exist.
  const valid = record ? await verifySecret(match[2]!, record.secretHash) : (await hashSecret(match[2]!), false)
  return valid && record && record.revokedAt === null ? record.club : null
}
