import { canonicalJson } from '../crypto/canonical-json.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import { previewBatches } from '../issuances/issue.ts'
import { MAX_RECIPIENTS } from '../issuances/schema.ts'
import type { BatchItem, BatchResult } from '../issuances/batch-result.ts'
import type { CsvRecipient } from '../issuances/recipients-csv.ts'
import type { IssueBody } from '../inputs.ts'
import type { IssueMode } from '../issuances/issuance.ts'
import type { IssuerContext } from '../context.ts'
import type { CsvUpload, CsvUploadProgress, CsvUploadRow } from './csv-upload.ts'

/** What the console issues from a file: a template, a notification mode, and the file's recipients. */
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

/** The staff console's issuing by CSV (docs/admin-console.md § Issuing by CSV), on the issue operation. */
export interface CsvUploads {
  /**
   * What issuing the rows would do, row by row, storing nothing: the issue operation's own rules over
   * chunks of its largest batch, the already-issued check of a chunk seeing the rows before it. A request
   * refused as a whole (`achievement-not-found`, `issuing-disabled`, `validation-failed`) throws.
   */
  preview(club: string, input: CsvIssueInput): Promise<CsvRowOutcome[]>
  /**
   * Issues the rows through the issue operation in chunks of its largest batch, each under an
   * Idempotency-Key of the confirmation and the chunk, and records each chunk's outcomes on the upload.
   * `nonce` is the confirmation's one-time value: the same confirmation again (a retry after a failure)
   * finds the same upload, skips the chunks it recorded and replays the ones issued but not recorded,
   * so that no row is issued twice. Throws as `preview` does.
   */
  issue(club: string, input: CsvIssueInput, nonce: string): Promise<CsvUpload>
  /** The club's upload, or `null` (another club's id too). */
  find(club: string, id: string): Promise<CsvUpload | null>
  /** The club's upload's rows in line order, or `null` when it is not the club's. */
  rows(club: string, id: string): Promise<CsvUploadRow[] | null>
  /** How far the club's upload is, with its row count, or `null` when it is not the club's. */
  progress(club: string, id: string): Promise<(CsvUploadProgress & { rowCount: number }) | null>
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

/** `issue` is the issuer's `issuances.issue`, the operation the API's issue route calls. */
export function createCsvUploads(ctx: IssuerContext, issue: Issue): CsvUploads {
  const storage = ctx.storage
  const find = (club: string, id: string) => storage.csvUploads.findById(club, id)
  return {
    async preview(club, input) {
      const chunks = chunksOf(input.recipients)
      const results = await previewBatches(
        ctx,
        club,
        chunks.map((chunk) => bodyOf(input, chunk)),
      )
      return chunks.flatMap((chunk, c) => chunk.map((recipient, i) => ({ recipient, item: results[c]!.results[i]! })))
    },

    async issue(club, input, nonce) {
      const key = await digestOf({ nonce, achievementFormId: input.achievementFormId, mode: input.mode, recipients: input.recipients })
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
      }
      if (!upload) throw new Error('A CSV upload has no rows to issue.')
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
