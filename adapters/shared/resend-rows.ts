import type { ResendRequest } from '../../core/issuances/resend-request.ts'
import { nullableNum, num, str, type SqlRow } from './sql-values.ts'

/** The row mapper of resend requests (`issuance_resends`), shared by both SQL adapters. */
export const toResendRequest = (row: SqlRow): ResendRequest => ({
  id: num(row.id),
  club: str(row.club),
  issuanceId: num(row.issuance_id),
  requestedAt: num(row.requested_at),
  mailedAt: nullableNum(row.mailed_at),
})
