import * as v from 'valibot'
import { requireClub } from '../clubs/require.ts'
import type { IssuerContext } from '../context.ts'
import { C_NONCE_TTL_SECONDS } from './lifetimes.ts'
import { credentialIssuerId } from './urls.ts'
import type { WalletKeys } from './wallet-keys.ts'

/** The nonce response (OID4VCI 1.0 §7.2). */
export const nonceResponseSchema = v.object({ c_nonce: v.string() })
export type NonceResponse = v.InferOutput<typeof nonceResponseSchema>

/**
 * A fresh `c_nonce` (OID4VCI 1.0 §7): signed and short-lived, so unpredictable and stored nowhere. No
 * proof is checked today (holder binding: see `issue-credential.ts`), so no nonce is checked either; it
 * is signed so that a later proof check can verify it without a store.
 */
export async function createNonce(ctx: IssuerContext, keys: WalletKeys, club: string): Promise<NonceResponse> {
  await requireClub(ctx.storage, club)
  return { c_nonce: await keys.sign('c-nonce', { iss: credentialIssuerId(ctx.config, club), jti: ctx.random.uuid() }, C_NONCE_TTL_SECONDS) }
}
