import { canonicalJson } from '../crypto/canonical-json.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import { previewBatches } from '../issuances/issue.ts'
import { MAX_RECIPIENTS } from '../issuances/schema.ts'
import type { BatchItem, BatchResult } from '../issuances/batch-result.ts'
import { CsvError, csvRecipientsPaced, type CsvRecipient } from '../issuances/recipients-csv.ts'
import type { IssueBody } from '../inputs.ts'
import type { IssueMode } from '../issuances/issuance.ts'
import type { ConsoleContext } from '../context.ts'
import type { CsvUpload, CsvUploadProgress, CsvUploadRow } from './csv-upload.ts'
import { fileDigestOf, nextTurn } from './file-digest.ts'

/** At most this many recipient rows in one file (docs/admin-console.md § Issuing by CSV). */
export const MAX_CSV_ROWS = 10_000

/** A file as the console read it (from UTF-8 or EUC-KR), with the template and the notification mode to issue. */
export interface CsvFileInput {
  achievementFormId: number
  mode: string
  text: string
}

/** The confirmation of a preview: the template, the mode, and the file kept by the preview, by its digest. */
export interface CsvConfirmation {
  achievementFormId: number
  mode: string
  digest: string
}

/** A row of the file and the issue operation's item for it. */
export interface CsvRowOutcome {
  recipient: CsvRecipient
  item: BatchItem
}

/** A preview: the digest its file is kept under, and every row's outcome in line order. */
export interface CsvPreview {
  digest: string
  outcomes: CsvRowOutcome[]
}

/** The staff console's issuing by CSV (docs/admin-console.md § Issuing by CSV), on the issue operation. */
export interface CsvUploads {
  /**
   * What issuing the file's rows would do, row by row: the issue operation's own rules over chunks of its
   * largest batch, the already-issued check of a chunk seeing the rows before it, in a unit that is undone.
   * Parsing and judging pause for the event loop between chunks. Keeps the file (`CsvFile`) under its
   * SHA-256 for the confirmation and nothing else. A file that cannot be read throws `CsvError`; a request
   * refused as a whole (`achievement-not-found`, `issuing-disabled`, `validation-failed`) throws, and then
   * nothing is kept.
   */
  preview(club: string, input: CsvFileInput): Promise<CsvPreview>
  /** Every row's outcome as `preview` judges it now, from the club's kept file; `null` when the club has none with this digest. */
  outcomes(club: string, confirmation: CsvConfirmation): Promise<CsvRowOutcome[] | null>
  /**
   * Issues the kept file's rows through the issue operation in chunks of its largest batch, each under an
   * Idempotency-Key of the confirmation and the chunk, records each chunk's outcomes on the upload, and
   * then removes the file. `nonce` is the confirmation's one-time value: the same confirmation again
   * while the file is kept (a retry after a failure) finds the same upload, skips the chunks it recorded
   * and replays the ones issued but not recorded, so that no row is issued twice. `null` when the club
   * has no file with this digest (never previewed, another club's, confirmed already, or removed after a
   * day). Throws as `preview` does.
   */
  issue(club: string, confirmation: CsvConfirmation, nonce: string): Promise<CsvUpload | null>
  /** The club's upload, or `null` (another club's id too). */
  find(club: string, id: string): Promise<CsvUpload | null>
  /** The club's upload's rows in line order, or `null` when it is not the club's. */
  rows(club: string, id: string): Promise<CsvUploadRow[] | null>
  /** How far the club's upload is, with its row count, or `null` when it is not the club's. */
  progress(club: string, id: string): Promise<(CsvUploadProgress & { rowCount: number }) | null>
}

/** The rows of a file to issue, as the chunks of the issue operation take them. */
interface CsvIssueInput {
  achievementFormId: number
  mode: string
  recipients: CsvRecipient[]
}

/** The issuer's `issuances.issue`, with the options this module passes. */
type Issue = (club: string, input: IssueBody, options: { idempotencyKey: string; idempotencyScope: string }) => Promise<{ result: BatchResult }>

const chunksOf = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / MAX_RECIPIENTS) }, (_, i) => items.slice(i * MAX_RECIPIENTS, (i + 1) * MAX_RECIPIENTS))

/** One chunk as the issue operation's body; the values as written, its rules judge them. */
const bodyOf = (input: CsvIssueInput, chunk: CsvRecipient[]): IssueBody => ({
  achievementFormId: input.achievementFormId,
  mode: input.mode as IssueMode,
  recipients: chunk.map(({ line: _line, ...recipient }) => recipient),
})

const rowOf = (uploadId: string, recipient: CsvRecipient, item: BatchItem): CsvUploadRow => ({
  uploadId,
  line: recipient.line,
  externalUserId: recipient.externalUserId ?? null,
  name: recipient.name,
  email: recipient.email,
  status: item.status,
  issuanceId: item.status === 'issued' ? item.resourceId : item.status === 'skipped' ? (item.error.resourceId ?? null) : null,
  code: item.error?.code ?? null,
  message: item.error?.message ?? null,
  // The item's path is `recipients.{index}.{member}`: the member is the row's, the index the chunk's.
  field: item.status === 'failed' ? (item.error.path.split('.')[2] ?? null) : null,
})

async function digestOf(value: unknown): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(value)))))
}

/** The file's recipients, read with pauses; a file without a recipient row is `csv-no-rows`. */
async function recipientsOf(text: string): Promise<CsvRecipient[]> {
  const recipients = await csvRecipientsPaced(text, { maxRows: MAX_CSV_ROWS, pause: nextTurn })
  if (recipients.length === 0) throw new CsvError('csv-no-rows', 'CSV: there is no row below the header')
  return recipients
}

/** `issue` is the issuer's `issuances.issue`, the operation the API's issue route calls. */
export function createCsvUploads(ctx: ConsoleContext, issue: Issue): CsvUploads {
  const storage = ctx.storage
  const find = (club: string, id: string) => storage.csvUploads.findById(club, id)
  const judge = async (club: string, input: CsvIssueInput): Promise<CsvRowOutcome[]> => {
    const chunks = chunksOf(input.recipients)
    const results = await previewBatches(
      ctx,
      club,
      chunks.map((chunk) => bodyOf(input, chunk)),
      { pause: nextTurn },
    )
    return chunks.flatMap((chunk, c) => chunk.map((recipient, i) => ({ recipient, item: results[c]!.results[i]! })))
  }
  const keptInput = async (club: string, { achievementFormId, mode, digest }: CsvConfirmation): Promise<CsvIssueInput | null> => {
    const file = await storage.csvUploads.findFile(club, digest)
    return file ? { achievementFormId, mode, recipients: await recipientsOf(file.text) } : null
  }
  return {
    async preview(club, { achievementFormId, mode, text }) {
      const outcomes = await judge(club, { achievementFormId, mode, recipients: await recipientsOf(text) })
      const digest = await fileDigestOf(text, nextTurn)
      await storage.transaction((tx) => tx.csvUploads.putFile({ club, digest, text, createdAt: ctx.clock.now() }), { club })
      return { digest, outcomes }
    },

    async outcomes(club, confirmation) {
      const input = await keptInput(club, confirmation)
      return input ? judge(club, input) : null
    },

    async issue(club, confirmation, nonce) {
      const input = await keptInput(club, confirmation)
      if (!input) return null
      // The file's digest stands for its rows: hashing 10,000 rows again would hold the event loop.
      const key = await digestOf({ nonce, achievementFormId: input.achievementFormId, mode: input.mode, file: confirmation.digest })
      let upload: CsvUpload | null = null
      let recorded = new Set<number>()
      for (const [c, chunk] of chunksOf(input.recipients).entries()) {
        if (recorded.has(chunk[0]!.line)) continue
        const { result } = await issue(club, bodyOf(input, chunk), { idempotencyKey: `console-csv ${key} ${c}`, idempotencyScope: 'console' })
        // The upload is made once its first chunk is issued, so that a file refused as a whole leaves none.
        if (!upload) {
          const claimed = await storage.transaction(
            (tx) =>
              tx.csvUploads.claim({
                id: 'csv_' + Array.from(ctx.random.bytes(12), (byte) => byte.toString(16).padStart(2, '0')).join(''),
                club,
                key,
                achievementId: input.achievementFormId,
                mode: input.mode as IssueMode,
                rowCount: input.recipients.length,
                createdAt: ctx.clock.now(),
              }),
            { club },
          )
          upload = claimed
          recorded = new Set((await storage.csvUploads.listRows(claimed.id)).map((row) => row.line))
          if (recorded.has(chunk[0]!.line)) continue
        }
        const uploadId = upload.id
        await storage.transaction((tx) => tx.csvUploads.insertRows(chunk.map((recipient, i) => rowOf(uploadId, recipient, result.results[i]!))), { club })
        await nextTurn()
      }
      if (!upload) throw new Error('A CSV upload has no rows to issue.')
      // Only once every chunk is recorded: until then the same confirmation can finish the upload.
      await storage.transaction((tx) => tx.csvUploads.deleteFile(club, confirmation.digest), { club })
      return upload
    },

    find,
    async rows(club, id) {
      const upload = await find(club, id)
      return upload ? storage.csvUploads.listRows(upload.id) : null
    },
    async progress(club, id) {
      const upload = await find(club, id)
      return upload ? { rowCount: upload.rowCount, ...(await storage.csvUploads.progress(upload.id)) } : null
    },
  }
}
