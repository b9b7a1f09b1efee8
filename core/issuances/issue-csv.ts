import { previewBatches } from './issue.ts'
import { MAX_RECIPIENTS } from './schema.ts'
import type { IssuerContext } from '../context.ts'
import type { IssueBody } from '../inputs.ts'
import type { IssueMode } from './issuance.ts'
import type { BatchItem, BatchResult } from './batch-result.ts'
import type { CsvRecipient } from './recipients-csv.ts'
import type { IssueKey } from './issue-keyed.ts'

/**
 * Issuing the recipients of a CSV file, the one path of the staff console and the admin CLI
 * (docs/admin-console.md § Issuing by CSV, docs/decisions/0051-one-csv-path-and-no-null-id.md § One CSV path): the file decoded by
 * `decodeCsv` (decode-csv.ts), its recipients read by `csvRecipients` with the line each starts on
 * (recipients-csv.ts), then judged (`judgeCsv`) or issued (`issueCsv`) in chunks of the issue operation's
 * largest batch, each row's outcome the issue operation's item for it beside its line.
 */

/** The rows of a file to issue, with the template and the notification mode, values as written. */
export interface CsvIssueInput {
  achievementFormId: number
  mode: string
  recipients: CsvRecipient[]
}

/** A row of the file and the issue operation's item for it. */
export interface CsvRowOutcome {
  recipient: CsvRecipient
  item: BatchItem
}

/** The issue operation under a key, as `issueKeyed` (issue-keyed.ts) or a façade's `issuances.issue` offer it. */
export type IssueOperation = (club: string, input: IssueBody, key: Required<IssueKey>) => Promise<{ result: BatchResult }>

/** One chunk issued: its index, its rows' outcomes in line order, and the issue operation's whole result. */
export interface CsvChunkIssued {
  index: number
  outcomes: CsvRowOutcome[]
  result: BatchResult
}

export interface IssueCsvOptions {
  /** Whose keys these are: `console`, `cli`. */
  idempotencyScope: string
  /** The Idempotency-Key of the chunk at `index`: the same file and chunk again replays, issuing nothing twice. */
  keyOf: (index: number) => string
  /** A chunk to pass over (the console's, recorded before a retry); asked just before the chunk is issued. */
  skip?: (chunk: CsvRecipient[]) => boolean
  /** Takes each chunk as it is issued, before the next one is (the console records it, the CLI counts it). */
  issued: (chunk: CsvChunkIssued) => Promise<void> | void
}

/** The recipients in chunks of the issue operation's largest batch (docs/api.md §4.3). */
export const csvChunks = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / MAX_RECIPIENTS) }, (_, i) => items.slice(i * MAX_RECIPIENTS, (i + 1) * MAX_RECIPIENTS))

/** One chunk as the issue operation's body; the values as written, its rules judge them. */
const bodyOf = (input: CsvIssueInput, chunk: CsvRecipient[]): IssueBody => ({
  achievementFormId: input.achievementFormId,
  mode: input.mode as IssueMode,
  recipients: chunk.map(({ line: _line, ...recipient }) => recipient),
})

const outcomesOf = (chunk: CsvRecipient[], result: BatchResult): CsvRowOutcome[] => chunk.map((recipient, i) => ({ recipient, item: result.results[i]! }))

/**
 * What issuing the rows would do, row by row: the issue operation's own rules over the chunks, the
 * already-issued check of a chunk seeing the rows before it, in a unit that is undone (`previewBatches`),
 * pausing between chunks. A request refused as a whole throws as the issue operation does.
 */
export async function judgeCsv(ctx: IssuerContext, club: string, input: CsvIssueInput, pause: () => Promise<void>): Promise<CsvRowOutcome[]> {
  const chunks = csvChunks(input.recipients)
  const results = await previewBatches(
    ctx,
    club,
    chunks.map((chunk) => bodyOf(input, chunk)),
    { pause },
  )
  return chunks.flatMap((chunk, c) => outcomesOf(chunk, results[c]!))
}

/**
 * Issues the rows through `issue` one chunk after the other, each under its own Idempotency-Key, and
 * hands each chunk's outcomes to `issued` before the next chunk. A request refused as a whole throws as
 * the issue operation does, the chunks before it issued.
 */
export async function issueCsv(issue: IssueOperation, club: string, input: CsvIssueInput, options: IssueCsvOptions): Promise<void> {
  for (const [index, chunk] of csvChunks(input.recipients).entries()) {
    if (options.skip?.(chunk)) continue
    const { result } = await issue(club, bodyOf(input, chunk), { idempotencyKey: options.keyOf(index), idempotencyScope: options.idempotencyScope })
    await options.issued({ index, outcomes: outcomesOf(chunk, result), result })
  }
}
