import type { CsvUploadRow } from '../../../core/csv-uploads/csv-upload.ts'

/** The header of an upload's results file (docs/admin-console.md § Issuing by CSV). */
export const RESULTS_HEADER = ['row', 'externalUserId', 'name', 'email', 'status', 'issuanceId', 'code', 'message'] as const

/**
 * A cell as RFC 4180 writes it, made inert for spreadsheets: text that begins with `=`, `+`, `-`, `@`, a
 * tab or a carriage return would be read as a formula (CSV injection, OWASP), so it gets a leading `'`,
 * which spreadsheets show as text and do not display.
 */
export function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert
}

/**
 * The results as CSV: the header, then a line per row of the file, CRLF-separated, with a UTF-8 byte order
 * mark so that spreadsheets read Korean as UTF-8. `row` is the line of the file the row starts on.
 */
export function resultsCsv(rows: CsvUploadRow[]): string {
  const lines = [RESULTS_HEADER.join(',')]
  for (const row of rows) {
    lines.push(
      [
        String(row.line),
        row.externalUserId ?? '',
        row.name,
        row.email,
        row.status,
        row.issuanceId === null ? '' : String(row.issuanceId),
        row.code ?? '',
        row.message ?? '',
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n'
}
