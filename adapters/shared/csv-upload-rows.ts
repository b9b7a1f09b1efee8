import type { CsvFile, CsvUpload, CsvUploadRow } from '../../core/csv-uploads/csv-upload.ts'
import type { IssueMode } from '../../core/issuances/issuance.ts'
import { nullableNum, nullableStr, num, str, type SqlRow } from './sql-values.ts'

/** The row mappers of the console's CSV uploads, shared by both SQL adapters. */
export const toCsvUpload = (row: SqlRow): CsvUpload => ({
  id: str(row.id),
  club: str(row.club),
  key: str(row.key),
  achievementId: num(row.achievement_id),
  mode: str(row.mode) as IssueMode,
  rowCount: num(row.row_count),
  createdAt: num(row.created_at),
})

export const toCsvUploadRow = (row: SqlRow): CsvUploadRow => ({
  uploadId: str(row.upload_id),
  line: num(row.line),
  externalUserId: nullableStr(row.external_user_id),
  name: str(row.name),
  email: str(row.email),
  status: str(row.status) as CsvUploadRow['status'],
  issuanceId: nullableNum(row.issuance_id),
  code: nullableStr(row.code),
  message: nullableStr(row.message),
  field: nullableStr(row.field),
})

/** A row's values in the tables' column order (`CSV_UPLOAD_ROW_COLUMNS`). */
export const csvUploadRowValues = (row: CsvUploadRow) =>
  [row.uploadId, row.line, row.externalUserId, row.name, row.email, row.status, row.issuanceId, row.code, row.message, row.field] as const

export const CSV_UPLOAD_ROW_COLUMNS = 'upload_id, line, external_user_id, name, email, status, issuance_id, code, message, field'

/** Characters of a kept file per stored part: at most 3 MiB of UTF-8, one short statement. */
const FILE_PART = 1024 * 1024

/**
 * A kept file's text in the parts the SQL adapters store, in order: none ends between the two halves
 * of a surrogate pair, which a database would store as two replacement characters.
 */
export function csvFileParts(text: string): string[] {
  const parts: string[] = []
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + FILE_PART, text.length)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++
    parts.push(text.slice(start, end))
    start = end
  }
  return parts
}

/** A kept file from its row and its parts' texts in order. */
export const toCsvFile = (row: SqlRow, parts: SqlRow[]): CsvFile => ({
  club: str(row.club),
  digest: str(row.digest),
  text: parts.map((part) => str(part.text)).join(''),
  createdAt: num(row.created_at),
})
