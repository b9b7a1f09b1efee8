import type { ClaimChannel, ClaimFormat, IssuanceClaim } from '../../core/issuances/issuance-claim.ts'
import { num, str, type SqlRow } from './sql-values.ts'

/** A row of `issuance_claims`, in both SQL adapters. */
export const toIssuanceClaim = (row: SqlRow): IssuanceClaim => ({
  issuanceId: num(row.issuance_id),
  club: str(row.club),
  via: str(row.via) as ClaimChannel,
  format: str(row.format) as ClaimFormat,
  at: num(row.at),
})
