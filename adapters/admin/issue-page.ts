import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, both, type Words } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { TemplateView } from '../../core/achievements/present.ts'

export const ISSUE_TITLE: Words = { ko: '발급', en: 'Issue' }

/** The form as typed: every value is kept when the form is shown again. */
export interface IssueFormValues {
  achievementFormId: string
  name: string
  email: string
  externalUserId: string
  mode: string
}

/** E-mailing the recipient is what a staff member issuing to one person most often wants; the form says so plainly. */
export const emptyIssueForm = (): IssueFormValues => ({ achievementFormId: '', name: '', email: '', externalUserId: '', mode: 'email' })

export const issueFormOfPost = (form: URLSearchParams): IssueFormValues => ({
  achievementFormId: form.get('achievementFormId') ?? '',
  name: form.get('name') ?? '',
  email: form.get('email') ?? '',
  externalUserId: form.get('externalUserId') ?? '',
  mode: form.get('mode') ?? '',
})

/** Why nothing was issued: beside the field it names, or at the top (`''`), with the core's code when there is one. */
export interface IssueRefusal {
  field: string
  words: Words
  code?: string
  /** The issuance the recipient already holds, linked from the message. */
  heldId?: number
}

export interface IssueFormPage {
  templates: TemplateView[]
  values: IssueFormValues
  refusal?: IssueRefusal | null
}

const FIELDS = ['achievementFormId', 'name', 'email', 'externalUserId', 'mode']

export function issueFormPage(base: string, session: ConsoleSession, { templates, values, refusal = null }: IssueFormPage): string {
  const at = refusal && FIELDS.includes(refusal.field) ? refusal.field : ''
  const errorOf = (name: string): Markup | null =>
    refusal && at === name
      ? html`<p class="error" id="${name}-error">${both(refusal.words)}${refusal.code ? html` <code>${refusal.code}</code>` : null}</p>`
      : null
  const invalid = (name: string) => (refusal && at === name ? html` aria-invalid="true" aria-describedby="${name}-error"` : null)
  const input = (name: string, label: Words, type: string, value: string, required: boolean) => html`<label for="${name}">${both(label)}</label>
<input id="${name}" name="${name}" type="${type}" value="${value}"${required ? html` required` : null}${invalid(name)}>
${errorOf(name)}`
  const mode = (value: string, label: Words) =>
    html`<label class="check"><input type="radio" name="mode" value="${value}"${values.mode === value ? html` checked` : null}${invalid('mode')}> ${both(label)}</label>`
  return consoleDocument(
    base,
    ISSUE_TITLE,
    html`<section class="card">
<h1>${both({ ko: '한 사람에게 발급', en: 'Issue to one recipient' })}</h1>
<p><a href="${base}/issue/csv" id="issue-csv-link">${both({ ko: 'CSV 파일로 여러 사람에게 발급', en: 'Issue to many from a CSV file' })}</a></p>
${refusal ? html`<p class="notice" role="alert">${both({ ko: '발급하지 않았습니다.', en: 'Nothing was issued.' })}</p>` : null}
${
  refusal && at === ''
    ? html`<p class="error" id="form-error">${both(refusal.words)}${refusal.code ? html` <code>${refusal.code}</code>` : null}${
        refusal.heldId !== undefined
          ? html` <a href="${base}/issuances/${String(refusal.heldId)}">${both({ ko: '받은 발급 보기', en: 'See the issuance held' })}</a>`
          : null
      }</p>`
    : null
}
${
  templates.length === 0
    ? html`<p>${both({ ko: '먼저 템플릿을 만드세요.', en: 'Create a template first.' })} <a href="${base}/templates/new">${both({ ko: '새 템플릿', en: 'New template' })}</a></p>`
    : null
}
<form method="post" action="${base}/issue">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<label for="achievementFormId">${both({ ko: '템플릿', en: 'Template' })}</label>
<select id="achievementFormId" name="achievementFormId" required${invalid('achievementFormId')}>
<option value="">선택 · Choose</option>
${templates.map((template) => html`<option value="${String(template.id)}"${String(template.id) === values.achievementFormId ? html` selected` : null}>${template.name}</option>`)}
</select>
${errorOf('achievementFormId')}
${input('name', { ko: '이름', en: 'Name' }, 'text', values.name, true)}
${input('email', { ko: '이메일', en: 'E-mail' }, 'email', values.email, true)}
${input('externalUserId', { ko: '외부 사용자 ID (선택)', en: 'External user id (optional)' }, 'text', values.externalUserId, false)}
<fieldset>
<legend>${both({ ko: '알림', en: 'Notification' })}</legend>
${mode('email', { ko: '받는 사람에게 이메일 보내기', en: 'E-mail the recipient' })}
${mode('none', { ko: '이메일 보내지 않기', en: 'Do not e-mail' })}
${errorOf('mode')}
</fieldset>
<button type="submit">발급 <span lang="en">Issue</span></button>
</form>
</section>`,
    session,
  )
}
