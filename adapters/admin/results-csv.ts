import type { CsvUploadRow } from '../../core/csv-uploads/csv-upload.ts'

/** The header of an upload's results file (docs/admin-console.md § Issuing by CSV). */
export const RESULTS_HEADER = ['row', 'externalUserId', 'name', 'email', 'status', 'issuanceId', 'code', 'message'] as const

/** What makes a spreadsheet read a cell as a formula (CSV injection, as OWASP lists it). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * Whether a spreadsheet may read `value` as a formula: it begins with one of OWASP's characters, or
 * does once leading whitespace is skipped (spreadsheets skip ` =1+1` to the `=`), judged on the NFKC
 * form, under which the full-width `＝＋－＠` (and the small `﹦﹢﹣`) are the ASCII characters that some
 * spreadsheets, in East Asian locales above all, take them for.
 */
export function readsAsFormula(value: string): boolean {
  const judged = value.normalize('NFKC')
  return FORMULA_START.test(judged) || FORMULA_START.test(judged.replace(/^\s+/u, ''))
}

/**
 * A cell as RFC 4180 writes it, made inert for spreadsheets: text a spreadsheet may read as a formula
 * (`readsAsFormula`) gets a leading `'`, which spreadsheets show as text and do not display.
 */
export function csvCell(value: string): string {
  const inert = readsAsFormula(value) ? `'${value}` : value
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
