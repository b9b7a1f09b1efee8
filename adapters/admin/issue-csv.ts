import { ProblemError } from '../../core/errors.ts'
import { CsvError } from '../../core/issuances/recipients-csv.ts'
import { MAX_CSV_ROWS, type CsvConfirmation } from '../../core/csv-uploads/csv-uploads.ts'
import { nextTurn } from '../../core/csv-uploads/file-digest.ts'
import { decodeCsv } from '../../core/issuances/decode-csv.ts'
import { htmlResponse, jsonResponse, scriptResponse, seeOther } from './responses.ts'
import { messagePage } from './pages.ts'
import { createWorkGate } from './work-gate.ts'
import { previewCsv } from './preview-csv.ts'
import { wordsOf } from './issue.ts'
import {
  csvFormPage,
  csvPreviewPage,
  csvProgressPage,
  csvResultsPage,
  csvUploadPath,
  progressDone,
  type CsvFormValues,
  type CsvRefusal,
} from './issue-csv-pages.ts'
import { ISSUE_CSV_SCRIPT } from './issue-csv-script.ts'
import { resultsCsv } from './results-csv.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import type { Words } from './pages.ts'
import type { PostedForm } from './multipart.ts'

export { MAX_CSV_ROWS }
/**
 * At most this many bytes of CSV: 10,000 rows of 200-character Korean names (600 bytes in UTF-8) with
 * e-mails and external ids of common length take about 7 MiB; 16 MiB leaves room for long e-mails and ids.
 */
export const MAX_CSV_BYTES = 16 * 1024 * 1024
/** The upload: the CSV and a few short fields with their multipart framing. */
const MAX_UPLOAD_BYTES = MAX_CSV_BYTES + 64 * 1024
/**
 * Previews, confirmations and outcome downloads running at once in a process; one more is 503 with
 * `Retry-After`. Each holds a file of up to 16 MiB, its text and its rows (under 100 MiB at its peak,
 * measured: docs/admin-console.md § Issuing by CSV), so two bound the memory they take together.
 */
export const CSV_WORK_AT_ONCE = 2
const BUSY: [Words, Words] = [
  { ko: '잠시 후 다시 시도하세요', en: 'Try again in a moment' },
  { ko: '지금 처리 중인 CSV가 너무 많습니다. 아무것도 발급하지 않았습니다.', en: 'Too many CSV files are being processed right now. Nothing was issued.' },
]
const PREVIEW_AGAIN: Words = { ko: '미리 보기부터 다시 하세요.', en: 'Preview the file again.' }
const TOO_LARGE: Words = {
  ko: `CSV는 ${MAX_CSV_BYTES / 1024 / 1024} MiB까지 올릴 수 있습니다.`,
  en: `A CSV may have at most ${MAX_CSV_BYTES / 1024 / 1024} MiB.`,
}
const LIMITS = { rows: MAX_CSV_ROWS, mebibytes: MAX_CSV_BYTES / 1024 / 1024 }

const CSV_WORDS: Record<string, Words> = {
  'csv-empty': { ko: '파일이 비어 있습니다.', en: 'The file is empty.' },
  'csv-no-rows': { ko: '첫 줄 아래에 받는 사람이 없습니다.', en: 'There is no recipient below the header.' },
  'csv-unclosed-quote': { ko: '닫히지 않은 큰따옴표가 있습니다.', en: 'A quoted field is not closed.' },
  'csv-missing-column': {
    ko: '첫 줄에 name 또는 email 열이 없습니다 (externalUserId,name,email).',
    en: 'The header has no name or email column (externalUserId,name,email).',
  },
  'csv-too-many-rows': { ko: `행이 ${MAX_CSV_ROWS.toLocaleString('en')}개보다 많습니다.`, en: `More than ${MAX_CSV_ROWS.toLocaleString('en')} rows.` },
  'csv-too-large': TOO_LARGE,
  'csv-encoding': { ko: '파일을 UTF-8이나 EUC-KR로 읽을 수 없습니다.', en: 'The file is neither UTF-8 nor EUC-KR.' },
}
const CHOOSE_TEMPLATE: Words = { ko: '템플릿을 선택하세요.', en: 'Choose a template.' }

const refusalOf = (code: string): CsvRefusal => ({ field: 'csv', words: CSV_WORDS[code]!, code })

const stringOf = (form: URLSearchParams, name: string) => form.get(name) ?? ''

/** The CSV of an upload: the file when one was chosen, else the pasted text; or why it cannot be read. */
async function csvTextOf({ form, files }: PostedForm): Promise<{ text: string } | { code: string }> {
  const file = files.get('file')
  if (file && file.bytes.byteLength > 0) {
    if (file.bytes.byteLength > MAX_CSV_BYTES) return { code: 'csv-too-large' }
    const text = await decodeCsv(file.bytes, nextTurn)
    return text === null ? { code: 'csv-encoding' } : { text }
  }
  const text = stringOf(form, 'csv')
  return new TextEncoder().encode(text).byteLength > MAX_CSV_BYTES ? { code: 'csv-too-large' } : { text }
}

/** A request refused as a whole by the issue operation, as the form shows it. */
function refusalOfProblem(error: ProblemError): CsvRefusal {
  if (error.code === 'validation-failed') {
    const first = error.errors?.[0]
    const field = first?.path?.split('.').at(-1) ?? ''
    if (field === 'achievementFormId') return { field, words: CHOOSE_TEMPLATE, code: first?.message }
    return { field, words: wordsOf(first?.message ?? '', error.detail ?? 'The form is not valid.'), code: first?.message }
  }
  if (error.code === 'achievement-not-found') return { field: 'achievementFormId', words: wordsOf(error.code, 'The template is not found.'), code: error.code }
  return { field: '', words: wordsOf(error.code, error.detail ?? error.message), code: error.code }
}

/** The template id as posted; not a number (an empty choice) is NaN, which the core refuses as from the API. */
const templateIdOf = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : NaN)

/** The one-time value of a preview's confirmation: a UUID the preview made. */
const NONCE = /^[0-9a-f-]{36}$/
/** A kept file's digest: SHA-256, lowercase hex. */
const DIGEST = /^[0-9a-f]{64}$/

/**
 * Issuing by CSV (docs/admin-console.md § Issuing by CSV): an upload form, a preview that keeps the file
 * in storage under its digest and stores nothing else, a confirmation that names the kept file and
 * issues it through the issue operation in chunks, the progress of the signing, and the results. At
 * most `CSV_WORK_AT_ONCE` previews, confirmations and outcome downloads run at once in the process.
 * The session's club only: another club's upload or kept file is not found.
 */
export function issueCsvHandlers({ issuer, base, notFound }: ConsoleFrame) {
  const gate = createWorkGate(CSV_WORK_AT_ONCE)
  const busy = (session: ConsoleSession) => htmlResponse(messagePage(base, BUSY[0], BUSY[1], session), 503, { 'retry-after': '5' })
  const templatesOf = async (club: string) => (await issuer.achievements.list(club, { limit: '100' })).data
  const formPage = async (session: ConsoleSession, values: CsvFormValues, status = 200, refusal: CsvRefusal | null = null) =>
    htmlResponse(csvFormPage(base, session, { templates: await templatesOf(session.club), values, refusal, limits: LIMITS }), status)
  /** The form again with why the work was refused: a file that cannot be read, or the issue operation's refusal. */
  const refused = (session: ConsoleSession, values: CsvFormValues, error: unknown) => {
    if (error instanceof CsvError) return formPage(session, values, 422, refusalOf(error.code))
    if (!(error instanceof ProblemError)) throw error
    return formPage(session, values, error.code === 'achievement-not-found' ? 404 : 422, refusalOfProblem(error))
  }

  /** The confirmation a form or a download names: the template, the mode and a kept file's digest; `null` when malformed. */
  const confirmationOf = (form: URLSearchParams, digest: string): CsvConfirmation | null =>
    DIGEST.test(digest) ? { achievementFormId: templateIdOf(stringOf(form, 'achievementFormId')), mode: stringOf(form, 'mode'), digest } : null

  return {
    'GET /issue-csv.js': () => scriptResponse(ISSUE_CSV_SCRIPT),
    'GET /issue/csv': (session) => formPage(session, { achievementFormId: '', mode: 'email', pasted: '' }),
    'POST /issue/csv': {
      body: { maxBytes: MAX_UPLOAD_BYTES, multipart: true, tooLarge: TOO_LARGE },
      handle: async (checked) => {
        const { session, form, files } = checked
        const file = files.get('file')
        const values: CsvFormValues = {
          achievementFormId: stringOf(form, 'achievementFormId'),
          mode: stringOf(form, 'mode'),
          // A pasted text is shown again; a file is not (it may be megabytes, and the field cannot be refilled).
          pasted: file && file.bytes.byteLength > 0 ? '' : stringOf(form, 'csv'),
        }
        const templateId = templateIdOf(values.achievementFormId)
        const answer = await gate.run(async () => {
          const csv = await csvTextOf(checked)
          if ('code' in csv) return formPage(session, values, 422, refusalOf(csv.code))
          try {
            const { digest, outcomes } = await issuer.csvUploads.preview(session.club, { achievementFormId: templateId, mode: values.mode, text: csv.text })
            const template = await issuer.achievements.read(session.club, templateId)
            return htmlResponse(csvPreviewPage(base, session, { template, mode: values.mode, digest, nonce: crypto.randomUUID(), outcomes }))
          } catch (error) {
            return refused(session, values, error)
          }
        })
        return answer ?? busy(session)
      },
    },
    'POST /issue/csv/confirm': async (checked) => {
      const { session, form } = checked
      const values: CsvFormValues = { achievementFormId: stringOf(form, 'achievementFormId'), mode: stringOf(form, 'mode'), pasted: '' }
      const nonce = stringOf(form, 'nonce')
      const confirmation = confirmationOf(form, stringOf(form, 'digest'))
      const again = () => formPage(session, values, 422, { field: '', words: PREVIEW_AGAIN })
      if (!NONCE.test(nonce) || !confirmation) return again()
      const answer = await gate.run(async () => {
        try {
          const created = await issuer.csvUploads.issue(session.club, confirmation, nonce)
          return created ? seeOther(csvUploadPath(base, created.id)) : again()
        } catch (error) {
          return refused(session, values, error)
        }
      })
      return answer ?? busy(session)
    },
    'GET /issue/csv/files/:digest/outcomes.csv': async (session, request) => {
      const confirmation = confirmationOf(new URL(request.url).searchParams, request.params.digest!)
      if (!confirmation) return notFound(session)
      const answer = await gate.run(async () => {
        let outcomes
        try {
          outcomes = await issuer.csvUploads.outcomes(session.club, confirmation)
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error
          return notFound(session)
        }
        if (!outcomes) return notFound(session)
        // The console's headers, as the results' CSV has them.
        return htmlResponse(previewCsv(outcomes), 200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="clubcred-preview-${confirmation.digest.slice(0, 16)}.csv"`,
        })
      })
      return answer ?? busy(session)
    },
    'GET /issue/csv/:id': async (session, request) => {
      const progress = await issuer.csvUploads.progress(session.club, request.params.id!)
      if (!progress) return notFound(session)
      return htmlResponse(csvProgressPage(base, session, { id: request.params.id!, progress }))
    },
    'GET /issue/csv/:id/progress': async (session, request) => {
      const progress = await issuer.csvUploads.progress(session.club, request.params.id!)
      if (!progress) return jsonResponse({ error: 'not-found' }, 404)
      return jsonResponse({ ...progress, done: progressDone(progress) })
    },
    'GET /issue/csv/:id/results': async (session, request) => {
      const rows = await issuer.csvUploads.rows(session.club, request.params.id!)
      if (!rows) return notFound(session)
      return htmlResponse(csvResultsPage(base, session, { id: request.params.id!, rows }))
    },
    'GET /issue/csv/:id/results.csv': async (session, request) => {
      const rows = await issuer.csvUploads.rows(session.club, request.params.id!)
      if (!rows) return notFound(session)
      const response = htmlResponse(resultsCsv(rows))
      response.headers.set('content-type', 'text/csv; charset=utf-8')
      response.headers.set('content-disposition', `attachment; filename="clubcred-upload-${request.params.id!}.csv"`)
      return response
    },
  } satisfies Partial<ConsoleHandlers>
}
