import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, both, type Words } from './pages.ts'
import { REQUIREMENT_TYPES, TEMPLATE_TYPES } from '../../core/achievements/template.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { TemplateView } from '../../core/achievements/present.ts'
import type { DesignView } from '../../core/designs/present.ts'
import type { Page } from '../../core/lists/cursor.ts'
import type { TemplateFormValues } from './template-form.ts'
import { errorOf, input, select, textarea } from './form-fields.ts'
import { coIssuerSection, emptyCoIssuerForm, type CoIssuerForm } from './co-issuer-section.ts'
import { previewSection } from './preview-section.ts'
import type { FileFormat } from '../../core/files/prepare-file.ts'

export const TEMPLATES_TITLE: Words = { ko: '템플릿', en: 'Templates' }

const TYPE_WORDS: Record<(typeof TEMPLATE_TYPES)[number], Words> = {
  completion: { ko: '이수', en: 'Completion' },
  activity: { ko: '활동', en: 'Activity' },
  license: { ko: '자격', en: 'License' },
  career: { ko: '경력', en: 'Career' },
  award: { ko: '수상', en: 'Award' },
  recommendation: { ko: '추천', en: 'Recommendation' },
  membership: { ko: '회원', en: 'Membership' },
  degree: { ko: '학위', en: 'Degree' },
}

/** A template's edit page: `{base}/templates/{id}`. */
export const templatePath = (base: string, id: number) => `${base}/templates/${id}`

const day = (iso: string) => iso.slice(0, 10)

export function templateListPage(base: string, session: ConsoleSession, page: Page<TemplateView>): string {
  const rows = page.data.map(
    (template) => html`<tr>
<td><a href="${templatePath(base, template.id)}">${template.name}</a>${template.nameEn ? html` <span class="en" lang="en">${template.nameEn}</span>` : null}</td>
<td>${both(TYPE_WORDS[template.type])}</td>
<td>${template.issuedCount}</td>
<td><time datetime="${template.createdAt}">${day(template.createdAt)}</time></td>
</tr>`,
  )
  return consoleDocument(
    base,
    TEMPLATES_TITLE,
    html`<section class="card">
<h1>${both(TEMPLATES_TITLE)}</h1>
<p><a class="button" href="${base}/templates/new">새 템플릿 <span lang="en">New template</span></a></p>
${
  page.data.length === 0
    ? html`<p>아직 템플릿이 없습니다. <span lang="en">No templates yet.</span></p>`
    : html`<table>
<thead><tr><th scope="col">${both({ ko: '이름', en: 'Name' })}</th><th scope="col">${both({ ko: '종류', en: 'Type' })}</th><th scope="col">${both({ ko: '발급', en: 'Issued' })}</th><th scope="col">${both({ ko: '만든 날', en: 'Created' })}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
${page.meta.nextCursor ? html`<p><a href="${base}/templates?cursor=${encodeURIComponent(page.meta.nextCursor)}">다음 <span lang="en">Next</span></a></p>` : null}
</section>`,
    session,
  )
}

/** Spare requirement rows below the filled ones, so that a form without script can add requirements. */
const SPARE_ROWS = 3

function requirementRows(values: TemplateFormValues, errors: Map<string, string[]>): Markup {
  const rows = [...values.requirements]
  for (let spare = 0; spare < SPARE_ROWS; spare++) rows.push({ type: '', description: '', url: '' })
  const types: [string, Words | string][] = [['', { ko: '(선택 안 함)', en: '(none)' }], ...REQUIREMENT_TYPES.map((type): [string, string] => [type, type])]
  return html`${rows.map(
    (row, index) => html`<fieldset class="requirement">
<legend>${both({ ko: `요건 ${index + 1}`, en: `Requirement ${index + 1}` })}</legend>
${select(`requirement.${index}.type`, row.type, types, { label: { ko: '종류', en: 'Type' }, errors })}
${textarea(`requirement.${index}.description`, row.description, { label: { ko: '설명', en: 'Description' }, errors }, 2)}
${input(`requirement.${index}.url`, row.url, { label: { ko: 'URL', en: 'URL' }, errors })}
</fieldset>`,
  )}`
}

export interface TemplateFormPage {
  /** `null` for a new template. */
  template: TemplateView | null
  values: TemplateFormValues
  errors: Map<string, string[]>
  designs: DesignView[]
  done?: Words | null
  /** The co-issuer forms of a template's page, as sent when refused. */
  coIssuerForm?: CoIssuerForm
  /** The file formats this server makes: the certificate preview needs `pdf`. */
  formats?: readonly FileFormat[]
}

export function templateFormPage(
  base: string,
  session: ConsoleSession,
  { template, values, errors, designs, done = null, coIssuerForm = emptyCoIssuerForm(), formats = [] }: TemplateFormPage,
): string {
  const title: Words = template ? { ko: '템플릿 수정', en: 'Edit template' } : { ko: '새 템플릿', en: 'New template' }
  const action = template ? templatePath(base, template.id) : `${base}/templates/new`
  const general = errors.get('')
  const designChoices = (kind: DesignView['kind'], builtIn: Words): [string, Words | string][] => [
    ['', builtIn],
    ...designs.filter((design) => design.kind === kind).map((design): [string, string] => [String(design.id), design.name]),
  ]
  return consoleDocument(
    base,
    title,
    html`<section class="card">
<p><a href="${base}/templates">← ${both(TEMPLATES_TITLE)}</a></p>
<h1>${template ? template.name : both(title)}</h1>
${done ? html`<p class="done" role="status">${both(done)}</p>` : null}
${errors.size > 0 ? html`<p class="notice" role="alert">${both({ ko: '저장하지 않았습니다. 표시된 항목을 고치세요.', en: 'Not saved. Correct the fields marked.' })}</p>` : null}
${general ? errorOf('form', general) : null}
${template ? html`<p>${both({ ko: '발급', en: 'Issued' })}: ${template.issuedCount} · ${both({ ko: '만든 날', en: 'Created' })}: ${day(template.createdAt)}</p>` : null}
<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<input type="hidden" name="programShown" value="${values.programShown ? '1' : '0'}">
${input('name', values.name, { label: { ko: '이름', en: 'Name' }, errors, required: true })}
${input('nameEn', values.nameEn, { label: { ko: '영문 이름', en: 'Name in English' }, errors })}
${select(
  'type',
  values.type,
  TEMPLATE_TYPES.map((type) => [type, TYPE_WORDS[type]]),
  { label: { ko: '종류', en: 'Type' }, errors },
)}
${textarea('description', values.description, { label: { ko: '설명', en: 'Description' }, errors, required: true })}
${textarea('descriptionEn', values.descriptionEn, { label: { ko: '영문 설명', en: 'Description in English' }, errors })}
${textarea('imprintDescription', values.imprintDescription, {
  label: { ko: '새겨지는 설명', en: 'Engraved description' },
  hint: { ko: '비워 두면 설명과 같습니다.', en: 'Left empty, it is the description.' },
  errors,
})}
${textarea('imprintDescriptionEn', values.imprintDescriptionEn, { label: { ko: '새겨지는 영문 설명', en: 'Engraved description in English' }, errors })}
${textarea('tag', values.tag, {
  label: { ko: '기술 태그', en: 'Skill tags' },
  hint: { ko: '한 줄에 하나씩, 30개까지.', en: 'One a line, at most 30.' },
  errors,
})}
<h2>${both({ ko: '이수 요건', en: 'Criteria' })}</h2>
<p class="hint">${both({ ko: '빈 줄은 저장하지 않습니다.', en: 'Empty rows are not saved.' })}</p>
${errorOf('requirements', errors.get('requirements'))}
${requirementRows(values, errors)}
<h2>${both({ ko: '프로그램', en: 'Program' })}</h2>
${input('programName', values.programName, { label: { ko: '프로그램 이름', en: 'Program name' }, errors })}
${input('programUrl', values.programUrl, { label: { ko: '프로그램 URL', en: 'Program URL' }, errors })}
<label class="check"><input type="checkbox" name="programPublic"${values.programPublic ? html` checked` : null}> ${both({ ko: '공개', en: 'Public' })}</label>
${errorOf('programPublic', errors.get('programPublic'))}
<h2>${both({ ko: '디자인과 번호', en: 'Design and numbering' })}</h2>
<p class="hint"><a href="${base}/designs">${both({ ko: '배지와 인증서 디자인 관리', en: 'Manage badge and certificate designs' })}</a></p>
${
  designs.length > 0
    ? html`${select('achievementBadgeDesignId', values.achievementBadgeDesignId, designChoices('badge', { ko: '기본 배지', en: 'Built-in badge' }), {
        label: { ko: '배지 디자인', en: 'Badge design' },
        errors,
      })}
${select(
  'achievementCertificateDesignId',
  values.achievementCertificateDesignId,
  designChoices('certificate', { ko: '기본 인증서', en: 'Default certificate' }),
  {
    label: { ko: '인증서 디자인', en: 'Certificate design' },
    errors,
  },
)}`
    : null
}
${input('prefix', values.prefix, {
  label: { ko: '인증서 번호 접두어', en: 'Certificate number prefix' },
  hint: { ko: '영문자 5자까지 (예: CHESS → CHESS-000123)', en: 'Up to 5 letters (CHESS gives CHESS-000123)' },
  errors,
})}
<h2>${both({ ko: '만료 알림', en: 'Expiry reminders' })}</h2>
${input('expiryReminders', values.expiryReminders, {
  label: { ko: '만료 전 알림', en: 'Remind before expiry' },
  hint: {
    ko: '만료일이 있는 발급에 보낼 알림, ISO 8601 기간 3개까지, 쉼표로 구분 (예: P30D, P7D). 1분~1년.',
    en: 'Mail recipients of an expiring issuance this long before: up to 3 ISO 8601 durations, comma-separated (P30D, P7D). One minute to one year.',
  },
  errors,
})}
<button type="submit">저장 <span lang="en">Save</span></button>
</form>
</section>
${template ? previewSection(`${templatePath(base, template.id)}/preview`, { badge: true, certificate: true, formats }) : null}
${template ? coIssuerSection(`${templatePath(base, template.id)}/co-issuers`, session, template, coIssuerForm) : null}`,
    session,
  )
}
