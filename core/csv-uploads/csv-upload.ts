import type { IssueMode } from '../issuances/issuance.ts'

/**
 * A CSV upload confirmed in the staff console (docs/admin-console.md § Issuing by CSV): what was issued
 * and to which template, so that its progress and results can be shown from any node.
 */
export interface CsvUpload {
  /** `csv_` and 24 hex digits. */
  id: string
  club: string
  /**
   * Unique in the club: a digest of the confirmation (its form's one-time value, the template, the mode
   * and the file), so that the same confirmation posted again finds this upload instead of making another.
   */
  key: string
  achievementId: number
  mode: IssueMode
  /** The recipient rows of the file, recorded yet or not. */
  rowCount: number
  createdAt: number
}

/** How one row of an upload came out: the issue operation's item for it. */
export interface CsvUploadRow {
  uploadId: string
  /** The line of the file the row starts on; the header is line 1. */
  line: number
  externalUserId: string | null
  name: string
  email: string
  status: 'issued' | 'skipped' | 'failed'
  /** The issuance made (`issued`), or the one the recipient already holds (`already-issued`); else `null`. */
  issuanceId: number | null
  /** The issue operation's code and message for a row not issued; `null` when issued. */
  code: string | null
  message: string | null
  /** The recipient's member a failed row's code is about (`name`, `email`, `externalUserId`); else `null`. */
  field: string | null
}

/** How far an upload is: rows recorded, those issued, and of them those whose credential is signed. */
export interface CsvUploadProgress {
  recorded: number
  issued: number
  signed: number
}

/**
 * A file previewed and not confirmed yet (docs/admin-console.md § Issuing by CSV), kept in storage so
 * that any node can take its confirmation without the browser sending the file again: addressed by its
 * digest within its club, removed by its confirmation or, never confirmed, by housekeeping after a day.
 */
export interface CsvFile {
  club: string
  /** SHA-256 of `text` in UTF-8, lowercase hex. */
  digest: string
  /** The CSV as read (from UTF-8 or EUC-KR). */
  text: string
  createdAt: number
}

/** How long a previewed file is kept unconfirmed: housekeeping removes it after this (a day). */
export const CSV_FILE_LIFETIME_MS = 24 * 60 * 60 * 1000
