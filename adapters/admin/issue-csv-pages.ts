import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, both, type Words } from './pages.ts'
import { issuancePath } from './issuance-pages.ts'
import { KO } from './issue.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { TemplateView } from '../../core/achievements/present.ts'
import type { CsvRowOutcome } from '../../core/csv-uploads/csv-uploads.ts'
import type { CsvUploadProgress, CsvUploadRow } from '../../core/csv-uploads/csv-upload.ts'

const TITLE: Words = { ko: 'CSV로 발급', en: 'Issue by CSV' }

export const csvUploadPath = (base: string, id: string) => `${base}/issue/csv/${id}`

/** The upload form as sent: kept when the form is shown again (a pasted text too, a chosen file not). */
export interface CsvFormValues {
  achievementFormId: string
  mode: string
  pasted: string
}

/** Why the file or the form was refused: beside the field it names (`csv`, `achievementFormId`, `mode`) or at the top (`''`). */
export interface CsvRefusal {
  field: string
  words: Words
  code?: string
}

const FIELDS = ['csv', 'achievementFormId', 'mode']

function errorBeside(refusal: CsvRefusal | null, name: string): Markup | null {
  if (!refusal || (FIELDS.includes(refusal.field) ? refusal.field : '') !== name) return null
  return html`<p class="error" id="${name || 'form'}-error" role="alert">${both(refusal.words)}${refusal.code ? html` <code>${refusal.code}</code>` : null}</p>`
}

const invalid = (refusal: CsvRefusal | null, name: string) =>
  refusal?.field === name ? html` aria-invalid="true" aria-describedby="${name}-error csv-hint"` : name === 'csv' ? html` aria-describedby="csv-hint"` : null

/** The template select and the notification choice, as on the one-recipient form. */
function templateAndMode(templates: TemplateView[], values: CsvFormValues, refusal: CsvRefusal | null): Markup {
  const mode = (value: string, label: Words) =>
    html`<label class="check"><input type="radio" id="mode-${value}" name="mode" value="${value}"${values.mode === value ? html` checked` : null}${invalid(refusal, 'mode')}> ${both(label)}</label>`
  return html`<label for="achievementFormId">${both({ ko: '템플릿', en: 'Template' })}</label>
<select id="achievementFormId" name="achievementFormId" required${invalid(refusal, 'achievementFormId')}>
<option value="">선택 · Choose</option>
${templates.map((template) => html`<option value="${String(template.id)}"${String(template.id) === values.achievementFormId ? html` selected` : null}>${template.name}</option>`)}
</select>
${errorBeside(refusal, 'achievementFormId')}
<fieldset>
<legend>${both({ ko: '알림', en: 'Notification' })}</legend>
${mode('email', { ko: '받는 사람에게 이메일 보내기', en: 'E-mail the recipients' })}
${mode('none', { ko: '이메일 보내지 않기', en: 'Do not e-mail' })}
${errorBeside(refusal, 'mode')}
</fieldset>`
}

export interface CsvFormPage {
  templates: TemplateView[]
  values: CsvFormValues
  refusal?: CsvRefusal | null
  limits: { rows: number; mebibytes: number }
}

/** The upload form: a file, or the CSV pasted, posted as multipart/form-data to the preview. */
export function csvFormPage(base: string, session: ConsoleSession, { templates, values, refusal = null, limits }: CsvFormPage): string {
  return consoleDocument(
    base,
    TITLE,
    html`<section class="card">
<h1>${both({ ko: 'CSV 파일로 여러 사람에게 발급', en: 'Issue to many recipients from a CSV file' })}</h1>
<p><a href="${base}/issue">${both({ ko: '한 사람에게 발급', en: 'Issue to one recipient' })}</a></p>
${refusal ? html`<p class="notice" role="alert">${both({ ko: '파일을 읽을 수 없습니다. 아무것도 발급하지 않았습니다.', en: 'The file cannot be used. Nothing was issued.' })}</p>` : null}
${errorBeside(refusal, '')}
<form method="post" action="${base}/issue/csv" enctype="multipart/form-data" id="csv-upload-form">
<input type="hidden" name="csrf" value="${session.csrfToken}">
${templateAndMode(templates, values, refusal)}
<p class="hint" id="csv-hint">${both({
      ko: `첫 줄은 externalUserId,name,email (externalUserId 열은 없어도 됩니다). 최대 ${limits.rows.toLocaleString('en')}행, ${limits.mebibytes} MiB. UTF-8 또는 EUC-KR.`,
      en: `The first line is externalUserId,name,email (the externalUserId column is optional). At most ${limits.rows.toLocaleString('en')} rows and ${limits.mebibytes} MiB; UTF-8 or EUC-KR.`,
    })}</p>
<label for="csv-file">${both({ ko: 'CSV 파일', en: 'CSV file' })}</label>
<input id="csv-file" name="file" type="file" accept=".csv,text/csv"${invalid(refusal, 'csv')}>
<label for="csv-text">${both({ ko: '또는 CSV 붙여넣기', en: 'Or paste the CSV' })}</label>
<textarea id="csv-text" name="csv" rows="8"${invalid(refusal, 'csv')}>${values.pasted}</textarea>
${errorBeside(refusal, 'csv')}
<button type="submit" id="csv-preview">미리 보기 <span lang="en">Preview</span></button>
</form>
</section>`,
    session,
  )
}

const FIELD_KO: Record<string, string> = { name: '이름', email: '이메일', externalUserId: '외부 사용자 ID' }

/** A row's outcome in words: the core's code, its English, the Korean for it; `lineOf` names rows of this file by the issuance they got. */
export function outcomeWords(
  outcome: { status: string; code: string | null; message: string | null; field: string | null; issuanceId: number | null },
  lineOf: Map<number, number>,
): Words {
  const code = outcome.code ?? ''
  const en = outcome.message ?? ''
  if (outcome.status === 'skipped' && code === 'already-issued' && outcome.issuanceId !== null && lineOf.has(outcome.issuanceId)) {
    const line = lineOf.get(outcome.issuanceId)!
    return { ko: `이 파일의 ${line}행과 같은 사람입니다.`, en: `The same recipient as row ${line} of this file.` }
  }
  const field = outcome.field
  const ko = KO[code] ?? '발급할 수 없습니다.'
  return field && FIELD_KO[field] ? { ko: `${FIELD_KO[field]}: ${ko}`, en: `${field}: ${en}` } : { ko, en }
}

/** At most this many rows with errors, and this many rows to be issued, are shown on a preview. */
export const PREVIEW_SHOWN = 100

export interface CsvPreviewPage {
  template: TemplateView
  mode: string
  /** The kept file's address, which the confirmation and the outcomes' download name. */
  digest: string
  nonce: string
  outcomes: CsvRowOutcome[]
}

/** A preview item not to be issued, as `outcomeWords` takes it; `null` for a row to be issued. */
export function outcomeOf(item: CsvRowOutcome['item']) {
  if (item.status === 'issued') return null
  return {
    status: item.status,
    code: item.error.code,
    message: item.error.message,
    field: 'path' in item.error ? (item.error.path.split('.')[2] ?? null) : null,
    issuanceId: item.status === 'skipped' ? (item.error.resourceId ?? null) : null,
  }
}

/** The line of each row a preview would issue, by the (never stored) issuance id it got: "the same recipient as row N". */
export const previewLines = (outcomes: CsvRowOutcome[]) =>
  new Map(outcomes.flatMap(({ recipient, item }) => (item.status === 'issued' ? [[item.resourceId, recipient.line] as const] : [])))

/** The download of every row's outcome: the kept file judged again with the template and the mode. */
export const previewCsvPath = (base: string, { digest, templateId, mode }: { digest: string; templateId: number; mode: string }) =>
  `${base}/issue/csv/files/${digest}/outcomes.csv?${new URLSearchParams({ achievementFormId: String(templateId), mode })}`

function previewRow(base: string, { recipient, item }: CsvRowOutcome, lineOf: Map<number, number>): Markup {
  const outcome = outcomeOf(item)
  const held = outcome?.issuanceId !== undefined && outcome?.issuanceId !== null && !lineOf.has(outcome.issuanceId) ? outcome.issuanceId : null
  return html`<tr id="row-${String(recipient.line)}"${outcome ? html` class="row-error"` : null}>
<th scope="row">${String(recipient.line)}</th><td>${recipient.externalUserId ?? ''}</td><td>${recipient.name}</td><td>${recipient.email}</td>
<td>${
    outcome
      ? html`<span class="error">${both(outcomeWords(outcome, lineOf))} <code>${outcome.code}</code></span>${
          held !== null ? html` <a href="${issuancePath(base, held)}">${both({ ko: '받은 발급', en: 'The issuance held' })}</a>` : null
        }`
      : both({ ko: '발급 예정', en: 'Will be issued' })
  }</td></tr>`
}

/**
 * The counts, the first rows with errors and the first rows to be issued (at most `PREVIEW_SHOWN` of
 * each, in line order), a download of every row's outcome, and the confirmation naming the kept file by
 * its digest: the page stays small whatever the file's size.
 */
export function csvPreviewPage(base: string, session: ConsoleSession, { template, mode, digest, nonce, outcomes }: CsvPreviewPage): string {
  const lineOf = previewLines(outcomes)
  const issuable = outcomes.filter(({ item }) => item.status === 'issued').length
  const bad = outcomes.filter(({ item }) => item.status !== 'issued')
  const shownBad = bad.slice(0, PREVIEW_SHOWN)
  const shownGood = outcomes.filter(({ item }) => item.status === 'issued').slice(0, PREVIEW_SHOWN)
  const shown = [...shownBad, ...shownGood].sort((a, b) => a.recipient.line - b.recipient.line)
  const hidden = outcomes.length - shown.length
  return consoleDocument(
    base,
    TITLE,
    html`<section class="card">
<h1>${both({ ko: '미리 보기', en: 'Preview' })}</h1>
<p>${both({ ko: '아직 아무것도 발급하지 않았습니다.', en: 'Nothing has been issued yet.' })} ${both({ ko: '템플릿', en: 'Template' })}: <strong>${template.name}</strong> · ${both(
      mode === 'email' ? { ko: '이메일 보냄', en: 'E-mail sent' } : { ko: '이메일 보내지 않음', en: 'No e-mail' },
    )}</p>
<dl class="counts" id="csv-summary">
<div><dt>${both({ ko: '행', en: 'Rows' })}</dt><dd id="csv-rows">${String(outcomes.length)}</dd></div>
<div><dt>${both({ ko: '발급 예정', en: 'Will be issued' })}</dt><dd id="csv-will-issue">${String(issuable)}</dd></div>
<div><dt>${both({ ko: '오류', en: 'With errors' })}</dt><dd id="csv-errors">${String(bad.length)}</dd></div>
</dl>
${
  bad.length > 0
    ? html`<p id="csv-error-rows">${both({ ko: '오류가 있는 행', en: 'Rows with errors' })}: ${shownBad.map(
        ({ recipient }, i) => html`${i > 0 ? ', ' : ''}<a href="#row-${String(recipient.line)}">${String(recipient.line)}</a>`,
      )}${bad.length > PREVIEW_SHOWN ? ' …' : ''}</p>`
    : null
}
<p><a class="button" href="${previewCsvPath(base, { digest, templateId: template.id, mode })}" id="csv-outcomes-download" download>${both({
      ko: '모든 행의 결과 CSV 내려받기',
      en: 'Download every row’s outcome (CSV)',
    })}</a></p>
${
  issuable > 0
    ? html`<form method="post" action="${base}/issue/csv/confirm" id="csv-confirm-form">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<input type="hidden" name="achievementFormId" value="${String(template.id)}">
<input type="hidden" name="mode" value="${mode}">
<input type="hidden" name="nonce" value="${nonce}">
<input type="hidden" name="digest" value="${digest}">
<p>${both({ ko: `오류가 없는 ${issuable}행을 발급합니다. 오류가 있는 행은 발급하지 않습니다.`, en: `The ${issuable} rows without errors are issued; rows with errors are not.` })}</p>
<button type="submit" id="csv-confirm">${issuable}건 발급 <span lang="en">Issue ${String(issuable)}</span></button>
</form>`
    : html`<p class="notice">${both({ ko: '발급할 수 있는 행이 없습니다.', en: 'No row can be issued.' })}</p>`
}
<p><a href="${base}/issue/csv" id="csv-again">${both({ ko: '다른 파일 올리기', en: 'Upload another file' })}</a></p>
</section>
<section class="card">
<h2>${both(
      hidden > 0
        ? {
            ko: `오류가 있는 처음 ${PREVIEW_SHOWN}행과 발급할 처음 ${PREVIEW_SHOWN}행 (나머지 ${hidden}행은 결과 CSV에 있습니다)`,
            en: `The first ${PREVIEW_SHOWN} rows with errors and the first ${PREVIEW_SHOWN} to be issued (the other ${hidden} are in the outcome CSV)`,
          }
        : { ko: '모든 행', en: 'Every row' },
    )}</h2>
<table id="csv-preview-table">
<thead><tr><th scope="col">${both({ ko: '행', en: 'Row' })}</th><th scope="col">externalUserId</th><th scope="col">${both({ ko: '이름', en: 'Name' })}</th><th scope="col">${both({ ko: '이메일', en: 'E-mail' })}</th><th scope="col">${both({ ko: '결과', en: 'Outcome' })}</th></tr></thead>
<tbody>
${shown.map((outcome) => previewRow(base, outcome, lineOf))}
</tbody>
</table>
</section>`,
    session,
  )
}

export interface CsvProgressPage {
  id: string
  progress: CsvUploadProgress & { rowCount: number }
}

/** Whether every row is recorded and every credential issued is signed. */
export const progressDone = (p: CsvUploadProgress & { rowCount: number }) => p.recorded === p.rowCount && p.signed === p.issued

/**
 * The progress of the signing: a bar of signed / issued. Without script the page refreshes itself until
 * it is done; with it, the static script polls the JSON beside it and moves the bar.
 */
export function csvProgressPage(base: string, session: ConsoleSession, { id, progress }: CsvProgressPage): string {
  const done = progressDone(progress)
  const path = csvUploadPath(base, id)
  // A progress element's max must be positive: an upload that issued nothing is full and done.
  const max = Math.max(progress.issued, 1)
  const value = progress.issued === 0 ? 1 : progress.signed
  // The count and the words beside the bar sit in one polite live region present from the load: a
  // screen reader announces a change inside it ("Every credential is signed" shown), which it would not
  // for a paragraph unhidden outside one.
  const head = done
    ? null
    : html`<noscript><meta http-equiv="refresh" content="2"></noscript>
<script src="${base}/issue-csv.js" defer></script>`
  return consoleDocument(
    base,
    TITLE,
    html`<section class="card">
<h1>${both({ ko: '발급 진행', en: 'Issuing progress' })}</h1>
${
  progress.recorded < progress.rowCount
    ? html`<p class="notice" id="csv-incomplete">${both({
        ko: `${progress.rowCount}행 중 ${progress.recorded}행만 처리되었습니다. 미리 보기에서 같은 발급을 다시 확인하면 나머지를 이어서 발급합니다.`,
        en: `Only ${progress.recorded} of ${progress.rowCount} rows were processed. Confirming the same preview again issues the rest.`,
      })}</p>`
    : null
}
<label for="csv-progress">${both({ ko: '서명된 배지', en: 'Credentials signed' })}</label>
<progress id="csv-progress" max="${String(max)}" value="${String(value)}" data-progress-url="${path}/progress"${done ? html` data-done="true"` : null}>${String(progress.signed)} / ${String(progress.issued)}</progress>
<div role="status" aria-live="polite" id="csv-progress-live">
<p id="csv-progress-text">${String(progress.signed)} / ${String(progress.issued)}</p>
<p id="csv-progress-status"${done ? html` hidden` : null}>${both({ ko: '서명 중입니다…', en: 'Signing…' })}</p>
<p class="done" id="csv-progress-done"${done ? null : html` hidden`}>${both({ ko: '모든 배지가 서명되었습니다.', en: 'Every credential is signed.' })}</p>
</div>
<p><a href="${path}/results" id="csv-results-link">${both({ ko: '행별 결과 보기', en: 'See each row’s result' })}</a></p>
</section>`,
    session,
    head,
  )
}

/** Each row's result, with the CSV of them to download. */
export function csvResultsPage(base: string, session: ConsoleSession, { id, rows }: { id: string; rows: CsvUploadRow[] }): string {
  const lineOf = new Map(rows.flatMap((row) => (row.status === 'issued' && row.issuanceId !== null ? [[row.issuanceId, row.line] as const] : [])))
  const count = (status: CsvUploadRow['status']) => String(rows.filter((row) => row.status === status).length)
  const STATUS: Record<CsvUploadRow['status'], Words> = {
    issued: { ko: '발급됨', en: 'Issued' },
    skipped: { ko: '건너뜀', en: 'Skipped' },
    failed: { ko: '실패', en: 'Failed' },
  }
  return consoleDocument(
    base,
    TITLE,
    html`<section class="card">
<h1>${both({ ko: '행별 결과', en: 'Results by row' })}</h1>
<dl class="counts" id="csv-results-summary">
<div><dt>${both(STATUS.issued)}</dt><dd id="csv-issued">${count('issued')}</dd></div>
<div><dt>${both(STATUS.skipped)}</dt><dd id="csv-skipped">${count('skipped')}</dd></div>
<div><dt>${both(STATUS.failed)}</dt><dd id="csv-failed">${count('failed')}</dd></div>
</dl>
<p><a class="button" href="${csvUploadPath(base, id)}/results.csv" id="csv-results-download" download>${both({ ko: '결과 CSV 내려받기', en: 'Download the results (CSV)' })}</a>
<a href="${csvUploadPath(base, id)}" id="csv-progress-link">${both({ ko: '진행 상황', en: 'Progress' })}</a></p>
</section>
<section class="card">
<h2>${both({ ko: '모든 행', en: 'Every row' })}</h2>
<table id="csv-results-table">
<thead><tr><th scope="col">${both({ ko: '행', en: 'Row' })}</th><th scope="col">${both({ ko: '받는 사람', en: 'Recipient' })}</th><th scope="col">${both({ ko: '결과', en: 'Result' })}</th></tr></thead>
<tbody>
${rows.map(
  (row) => html`<tr id="row-${String(row.line)}"><th scope="row">${String(row.line)}</th>
<td>${row.name}<br><span class="en">${row.email}${row.externalUserId ? ` · ${row.externalUserId}` : ''}</span></td>
<td>${
    row.status === 'issued' && row.issuanceId !== null
      ? html`<a href="${issuancePath(base, row.issuanceId)}">${both(STATUS.issued)}</a>`
      : html`${both(STATUS[row.status])}: ${both(outcomeWords(row, lineOf))} <code>${row.code ?? ''}</code>${
          row.issuanceId !== null && !lineOf.has(row.issuanceId)
            ? html` <a href="${issuancePath(base, row.issuanceId)}">${both({ ko: '받은 발급', en: 'The issuance held' })}</a>`
            : null
        }`
  }</td></tr>`,
)}
</tbody>
</table>
</section>`,
    session,
  )
}
