import { ProblemError } from '../errors.ts'
import { hashSecret } from '../crypto/secret-hash.ts'
import { newSecret } from './create.ts'
import type { IssuerContext } from '../context.ts'

/**
 * Gives the client a new secret. The old secret stops working at once, and so do the access tokens
 * issued before the rotation: a rotation usually answers a leak.
 */
export async function rotateClientSecret(ctx: IssuerContext, clientId: string): Promise<{ client_id: string; client_secret: string }> {
  const secret = newSecret(ctx, 'ccs_')
  const secretHash = await hashSecret(secret)
  const found = await ctx.storage.transaction((tx) => tx.clients.updateSecret(clientId, secretHash, ctx.clock.now()), { concurrent: true })
  if (!found) throw new ProblemError('client-not-found', { detail: `There is no client ${clientId}.` })
  return { client_id: clientId, client_secret: secret }
}
