import { ProblemError } from '../../core/errors.ts'
import { htmlResponse, seeOther } from './responses.ts'
import { issuancePath } from './issuance-pages.ts'
import { emptyIssueForm, issueFormOfPost, issueFormPage, type IssueFormValues, type IssueRefusal } from './issue-page.ts'
import type { IssueBody } from '../../core/inputs.ts'
import type { BatchItem } from '../../core/issuances/batch-result.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import type { Words } from './pages.ts'

/** Korean for the codes the core gives; its English message goes beside it. */
export const KO: Record<string, string> = {
  'invalid-email': '이메일 주소가 올바르지 않습니다.',
  required: '필수 항목입니다.',
  'too-long': '너무 깁니다.',
  'control-character': '쓸 수 없는 문자가 있습니다.',
  'already-issued': '이 사람은 이미 이 배지를 받았습니다.',
  'duplicate-in-request': '앞에 나온 사람과 같습니다.',
  'lone-surrogate': '쓸 수 없는 문자가 있습니다.',
  'unknown-mode': '알림 방식을 선택하세요.',
  'issuing-disabled': '이 클럽은 발급이 중지되어 있습니다.',
  'achievement-not-found': '템플릿을 찾을 수 없습니다.',
}
const CHOOSE_TEMPLATE: Words = { ko: '템플릿을 선택하세요.', en: 'Choose a template.' }

export const wordsOf = (code: string, en: string): Words => ({ ko: KO[code] ?? '발급할 수 없습니다.', en })

/** The form field a core path names (`recipients.0.email`, `mode`), or the top of the form. */
const fieldOf = (path: string | undefined) => path?.split('.').at(-1) ?? ''

/** The one recipient's item of the batch result, as the form shows it. */
function refusalOfItem(item: Exclude<BatchItem, { status: 'issued' }>): IssueRefusal {
  if (item.status === 'skipped') return { field: '', words: wordsOf(item.error.code, item.error.message), code: item.error.code, heldId: item.error.resourceId }
  return { field: fieldOf(item.error.path), words: wordsOf(item.error.code, item.error.message), code: item.error.code }
}

/** The body of the API's issue call for the form, one recipient; the core judges every value. */
function bodyOfForm(values: IssueFormValues): IssueBody {
  const externalUserId = values.externalUserId.trim() === '' ? {} : { externalUserId: values.externalUserId }
  return {
    // Not a number (an empty choice): NaN, which the core refuses as it refuses it from the API.
    achievementFormId: /^\d{1,15}$/.test(values.achievementFormId) ? Number(values.achievementFormId) : NaN,
    // As posted: an unknown mode is the core's to refuse (`unknown-mode`).
    mode: values.mode as IssueBody['mode'],
    recipients: [{ name: values.name, email: values.email, ...externalUserId }],
  }
}

/**
 * Issue to one recipient (docs/admin-console.md § Issue): a form posted to `issuer.issuances.issue`, the
 * operation the API's issue route calls, with one recipient; the batch result's item for it decides the
 * answer. The session's club only: another club's template is not found.
 */
export function issueHandlers({ issuer, base }: ConsoleFrame) {
  // The choices: the club's newest 100 templates (a club has tens), as the issuances filter.
  const templatesOf = async (club: string) => (await issuer.achievements.list(club, { limit: '100' })).data
  const formPage = async (session: ConsoleSession, values: IssueFormValues, status = 200, refusal: IssueRefusal | null = null) =>
    htmlResponse(issueFormPage(base, session, { templates: await templatesOf(session.club), values, refusal }), status)

  return {
    'GET /issue': async (session) => {
      return formPage(session, emptyIssueForm())
    },
    'POST /issue': async (checked) => {
      const { session, form } = checked
      const values = issueFormOfPost(form)
      let item: BatchItem | undefined
      try {
        item = (await issuer.issuances.issue(session.club, bodyOfForm(values))).result.results[0]
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error
        if (error.code === 'achievement-not-found') {
          return formPage(session, values, 404, { field: 'achievementFormId', words: wordsOf(error.code, 'The template is not found.'), code: error.code })
        }
        if (error.code === 'validation-failed') {
          const first = error.errors?.[0]
          const field = fieldOf(first?.path)
          const words = field === 'achievementFormId' ? CHOOSE_TEMPLATE : wordsOf(first?.message ?? '', error.detail ?? 'The form is not valid.')
          return formPage(session, values, 422, { field, words, code: first?.message })
        }
        return formPage(session, values, 422, { field: '', words: wordsOf(error.code, error.detail ?? error.message), code: error.code })
      }
      if (item?.status === 'issued') return seeOther(`${issuancePath(base, item.resourceId)}?done=issued`)
      if (!item) throw new Error('The batch result has no item for the one recipient.')
      return formPage(session, values, 422, refusalOfItem(item))
    },
  } satisfies Partial<ConsoleHandlers>
}
