import { canonicalJson } from '../crypto/canonical-json.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import { CsvError, csvRecipientsPaced, type CsvRecipient } from '../issuances/recipients-csv.ts'
import { issueCsv, judgeCsv, type CsvIssueInput, type CsvRowOutcome, type IssueOperation } from '../issuances/issue-csv.ts'
import { issueKeyed } from '../issuances/issue-keyed.ts'
import type { BatchItem } from '../issuances/batch-result.ts'
import type { IssueMode } from '../issuances/issuance.ts'
import type { ConsoleContext } from '../context.ts'
import type { CsvUpload, CsvUploadProgress, CsvUploadRow } from './csv-upload.ts'
import { fileDigestOf, nextTurn } from './file-digest.ts'

export type { CsvRowOutcome }

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

/** A new upload of the confirmation `key`, its id fresh: `claim` answers the existing one for a key already claimed. */
const newUpload = (ctx: ConsoleContext, club: string, key: string, input: CsvIssueInput): CsvUpload => ({
  id: 'csv_' + Array.from(ctx.random.bytes(12), (byte) => byte.toString(16).padStart(2, '0')).join(''),
  club,
  key,
  achievementId: input.achievementFormId,
  mode: input.mode as IssueMode,
  rowCount: input.recipients.length,
  createdAt: ctx.clock.now(),
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

/** Issuing by CSV on the issue operation itself (`issueKeyed`), as the API's issue route calls it. */
export function createCsvUploads(ctx: ConsoleContext): CsvUploads {
  const storage = ctx.storage
  const find = (club: string, id: string) => storage.csvUploads.findById(club, id)
  const judge = (club: string, input: CsvIssueInput) => judgeCsv(ctx, club, input, nextTurn)
  const issue: IssueOperation = (club, body, issueKey) => issueKeyed(ctx, club, body, issueKey)
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
      await issueCsv(issue, club, input, {
        idempotencyScope: 'console',
        keyOf: (c) => `console-csv ${key} ${c}`,
        skip: (chunk) => recorded.has(chunk[0]!.line),
        issued: async ({ outcomes }) => {
          const first = outcomes[0]!.recipient.line
          // The upload is made once its first chunk is issued, so that a file refused as a whole leaves none.
          if (!upload) {
            upload = await storage.transaction((tx) => tx.csvUploads.claim(newUpload(ctx, club, key, input)), { club })
            recorded = new Set((await storage.csvUploads.listRows(upload.id)).map((row) => row.line))
            if (recorded.has(first)) return
          }
          const uploadId = upload.id
          await storage.transaction((tx) => tx.csvUploads.insertRows(outcomes.map(({ recipient, item }) => rowOf(uploadId, recipient, item))), { club })
          await nextTurn()
        },
      })
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
