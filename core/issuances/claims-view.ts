import * as v from 'valibot'
import { CLAIM_CHANNELS, CLAIM_FORMATS, type IssuanceClaim } from './issuance-claim.ts'

/**
 * The members the issuance detail gains from wallets (docs/api.md §2.6): `claimedAt`, the first claim's
 * time (`null` until a wallet took the credential), and `claims`, every take, oldest first. Kept apart
 * from present.ts so that other parts of the detail grow beside it without touching one list.
 */
export const claimsViewEntries = {
  claimedAt: v.nullable(v.string()),
  claims: v.array(v.object({ via: v.picklist(CLAIM_CHANNELS), format: v.picklist(CLAIM_FORMATS), at: v.string() })),
}
export const claimsViewSchema = v.object(claimsViewEntries)
export type ClaimsView = v.InferOutput<typeof claimsViewSchema>

export function presentClaims(claims: IssuanceClaim[]): ClaimsView {
  const iso = (ms: number) => new Date(ms).toISOString()
  return {
    claimedAt: claims.length === 0 ? null : iso(claims[0]!.at),
    claims: claims.map((claim) => ({ via: claim.via, format: claim.format, at: iso(claim.at) })),
  }
}
