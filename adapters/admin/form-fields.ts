import { html, type Markup } from '../http/share-page/html.ts'
import { DESIGN_CODE_WORDS } from './design-words.ts'
import { both, type Words } from './pages.ts'

/**
 * The fields of the console's forms (templates, designs, co-issuers): a label, a hint, the control, and
 * the API's errors beside it in words and as the code (`aria-describedby`, `aria-invalid`).
 */

/** The API's codes (docs/api.md §4.10, §7.3) in words; the code itself is shown beside them. */
export const CODE_WORDS: Record<string, Words> = {
  required: { ko: '필수 항목입니다.', en: 'Required.' },
  'too-long': { ko: '너무 깁니다.', en: 'Too long.' },
  'control-character': { ko: '쓸 수 없는 문자가 있습니다.', en: 'Holds a character that is not allowed.' },
  'lone-surrogate': { ko: '쓸 수 없는 문자가 있습니다.', en: 'Holds a character that is not allowed.' },
  'en-text-not-latin': { ko: '영문(라틴 문자)만 쓸 수 있습니다.', en: 'Latin script only.' },
  'tag-contains-comma': { ko: '태그에 쉼표를 쓸 수 없습니다. 한 줄에 하나씩 쓰세요.', en: 'A tag holds no comma: one tag a line.' },
  'tag-too-long': { ko: '태그는 50자 이하여야 합니다.', en: 'A tag has at most 50 characters.' },
  'too-many-tags': { ko: '태그는 30개까지입니다.', en: 'At most 30 tags.' },
  'requirement-empty': { ko: '설명이나 URL 중 하나는 있어야 합니다.', en: 'A requirement needs a description or a URL.' },
  'invalid-url': { ko: 'http(s)로 시작하는 전체 URL이어야 합니다.', en: 'Must be an absolute http(s) URL.' },
  'too-many-requirements': { ko: '요건은 100개까지입니다.', en: 'At most 100 requirements.' },
  'prefix-letters-only': { ko: '영문자만 쓸 수 있습니다.', en: 'Letters only.' },
  'prefix-too-long': { ko: '5자 이하여야 합니다.', en: 'At most 5 letters.' },
  'design-not-found': { ko: '이 클럽의 디자인이 아닙니다.', en: 'Not a design of this club.' },
  'unknown-type': { ko: '알 수 없는 종류입니다.', en: 'Unknown type.' },
  'unknown-requirement-type': { ko: '알 수 없는 요건 종류입니다.', en: 'Unknown requirement type.' },
  'design-kind-mismatch': { ko: '이 종류의 디자인이 아닙니다.', en: 'Not a design of this kind.' },
  'invalid-duration': { ko: 'ISO 8601 기간이어야 합니다 (예: P30D, P1W, PT12H).', en: 'Must be an ISO 8601 duration (P30D, P1W, PT12H).' },
  'reminder-too-short': { ko: '알림은 1분 이상 전이어야 합니다.', en: 'A reminder is at least one minute before.' },
  'reminder-too-long': { ko: '알림은 1년 이내여야 합니다.', en: 'A reminder is at most one year before.' },
  'too-many-reminders': { ko: '알림은 3개까지입니다.', en: 'At most 3 reminders.' },
  'duplicate-reminder': { ko: '같은 기간이 두 번 있습니다.', en: 'The same duration twice.' },
  ...DESIGN_CODE_WORDS,
}
const OTHER_CODE: Words = { ko: '올바른 값이 아닙니다.', en: 'Not a valid value.' }

export interface FieldOptions {
  label: Words
  hint?: Words
  errors: Map<string, string[]>
  required?: boolean
}

/** The error of a field beside it, each code in words and as the API's code. */
export function errorOf(id: string, codes: string[] | undefined): Markup | null {
  if (!codes) return null
  return html`<p class="error" id="${id}-error">${codes.map((code) => html`${both(CODE_WORDS[code] ?? OTHER_CODE)} <code>${code}</code> `)}</p>`
}

export const idOf = (name: string) => name.replaceAll('.', '-')

export function describedBy(id: string, invalid: boolean, hint: boolean): Markup | null {
  const ids = [invalid ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ')
  return html`${invalid ? html` aria-invalid="true"` : null}${ids ? html` aria-describedby="${ids}"` : null}`
}

export function labelled(name: string, { label, hint, errors }: FieldOptions, control: Markup): Markup {
  const id = idOf(name)
  return html`<label for="${id}">${both(label)}</label>
${hint ? html`<p class="hint" id="${id}-hint">${both(hint)}</p>` : null}
${control}
${errorOf(id, errors.get(name))}`
}

export function input(name: string, value: string, options: FieldOptions): Markup {
  const id = idOf(name)
  const invalid = options.errors.has(name)
  return labelled(
    name,
    options,
    html`<input id="${id}" name="${name}" type="text" value="${value}"${options.required ? html` required` : null}${describedBy(id, invalid, Boolean(options.hint))}>`,
  )
}

export function textarea(name: string, value: string, options: FieldOptions, rows = 4): Markup {
  const id = idOf(name)
  const invalid = options.errors.has(name)
  // A textarea drops one leading line feed: a value starting with one keeps it through the extra one.
  return labelled(
    name,
    options,
    html`<textarea id="${id}" name="${name}" rows="${rows}"${options.required ? html` required` : null}${describedBy(id, invalid, Boolean(options.hint))}>
${value}</textarea>`,
  )
}

/** A choice; an option holds text only (no markup), so its words are joined by a dot. */
export function select(name: string, value: string, choices: [string, Words | string][], options: FieldOptions): Markup {
  const id = idOf(name)
  const invalid = options.errors.has(name)
  return labelled(
    name,
    options,
    html`<select id="${id}" name="${name}"${describedBy(id, invalid, Boolean(options.hint))}>
${choices.map(([choice, words]) => html`<option value="${choice}"${choice === value ? html` selected` : null}>${typeof words === 'string' ? words : `${words.ko} · ${words.en}`}</option>`)}
</select>`,
  )
}
