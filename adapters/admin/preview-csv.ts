import { csvCell } from './results-csv.ts'
import { outcomeOf, outcomeWords, previewLines } from './issue-csv-pages.ts'
import type { CsvRowOutcome } from '../../core/csv-uploads/csv-uploads.ts'

/** The header of a preview's outcomes file (docs/admin-console.md § Issuing by CSV). */
export const PREVIEW_HEADER = ['row', 'externalUserId', 'name', 'email', 'outcome', 'issuanceId', 'code', 'message'] as const

/**
 * Every row's outcome in a preview as CSV, made inert for spreadsheets as the results are (`csvCell`):
 * `outcome` is `to-issue`, `skipped` or `failed`; `issuanceId` the issuance a recipient already held
 * before this file (a row skipped as the same recipient as an earlier row says so in `message`, since
 * the issuance the preview gave that row was never stored). UTF-8 with a byte order mark, CRLF lines.
 */
export function previewCsv(outcomes: CsvRowOutcome[]): string {
  const lineOf = previewLines(outcomes)
  const lines = [PREVIEW_HEADER.join(',')]
  for (const { recipient, item } of outcomes) {
    const outcome = outcomeOf(item)
    const held = outcome?.issuanceId !== null && outcome?.issuanceId !== undefined && !lineOf.has(outcome.issuanceId) ? String(outcome.issuanceId) : ''
    lines.push(
      [
        String(recipient.line),
        recipient.externalUserId ?? '',
        recipient.name,
        recipient.email,
        outcome ? outcome.status : 'to-issue',
        held,
        outcome?.code ?? '',
        outcome ? outcomeWords(outcome, lineOf).en : '',
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n'
}
