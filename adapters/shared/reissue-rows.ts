import type { CredentialVersion, ReissueRecord } from '../../core/reissues/reissue-record.ts'
import { toCredential } from './rows.ts'
import { nullableNum, nullableStr, num, str, type SqlRow } from './sql-values.ts'

/** A `reissues` row of either SQL adapter. */
export const toReissue = (row: SqlRow): ReissueRecord => ({
  club: str(row.club),
  issuanceId: num(row.issuance_id),
  previousIssuanceId: nullableNum(row.previous_issuance_id),
  reason: nullableStr(row.reason),
  awardedAt: nullableNum(row.awarded_at),
  reissuedAt: num(row.reissued_at),
})

/** A `credential_versions` row of either SQL adapter. */
export const toCredentialVersion = (row: SqlRow): CredentialVersion => ({ ...toCredential(row), version: num(row.version) })
