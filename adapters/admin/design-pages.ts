import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, both, type Words } from './pages.ts'
import { describedBy, errorOf, idOf, input, labelled, select, type FieldOptions } from './form-fields.ts'
import { previewSection } from './preview-section.ts'
import { SHOWN, type DesignFormValues, type Shown } from './design-form.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { DesignView } from '../../core/designs/present.ts'
import type { FileFormat } from '../../core/files/prepare-file.ts'
import type { Page } from '../../core/lists/cursor.ts'

export const DESIGNS_TITLE: Words = { ko: '디자인', en: 'Designs' }

const KIND_WORDS: Record<string, Words> = {
  badge: { ko: '배지', en: 'Badge' },
  certificate: { ko: '인증서', en: 'Certificate' },
}
const SHOWN_WORDS: Record<Shown, Words> = {
  description: { ko: '설명', en: 'Description' },
  criteria: { ko: '이수 요건', en: 'Criteria' },
  coIssuers: { ko: '공동 발급자', en: 'Co-issuers' },
  qrCode: { ko: 'QR 코드', en: 'QR code' },
}

/** A design's page: `{base}/designs/{id}`. */
export const designPath = (base: string, id: number) => `${base}/designs/${id}`

const day = (iso: string) => iso.slice(0, 10)

export function designListPage(base: string, session: ConsoleSession, page: Page<DesignView>): string {
  const rows = page.data.map(
    (design) => html`<tr>
<td><a href="${designPath(base, design.id)}">${design.name}</a></td>
<td>${both(KIND_WORDS[design.kind]!)}</td>
<td><time datetime="${design.createdAt}">${day(design.createdAt)}</time></td>
</tr>`,
  )
  return consoleDocument(
    base,
    DESIGNS_TITLE,
    html`<section class="card">
<h1>${both(DESIGNS_TITLE)}</h1>
<p><a class="button" href="${base}/designs/new?kind=badge">새 배지 디자인 <span lang="en">New badge design</span></a>
<a class="button" href="${base}/designs/new?kind=certificate">새 인증서 디자인 <span lang="en">New certificate design</span></a></p>
${
  page.data.length === 0
    ? html`<p>아직 디자인이 없습니다. 템플릿은 기본 배지와 기본 인증서를 씁니다. <span lang="en">No designs yet: templates use the built-in badge and certificate.</span></p>`
    : html`<table>
<thead><tr><th scope="col">${both({ ko: '이름', en: 'Name' })}</th><th scope="col">${both({ ko: '종류', en: 'Kind' })}</th><th scope="col">${both({ ko: '만든 날', en: 'Created' })}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
${page.meta.nextCursor ? html`<p><a href="${base}/designs?cursor=${encodeURIComponent(page.meta.nextCursor)}">다음 <span lang="en">Next</span></a></p>` : null}
</section>`,
    session,
  )
}

/** A file input (PNG or SVG), its error beside it. */
function fileInput(name: string, options: FieldOptions): Markup {
  const id = idOf(name)
  return labelled(
    name,
    options,
    html`<input id="${id}" name="${name}" type="file" accept="image/png,image/svg+xml,.png,.svg"${options.required ? html` required` : null}${describedBy(id, options.errors.has(name), Boolean(options.hint))}>`,
  )
}

function colorInput(name: string, value: string, options: FieldOptions): Markup {
  const id = idOf(name)
  return labelled(name, options, html`<input id="${id}" name="${name}" type="color" value="${value}"${describedBy(id, options.errors.has(name), false)}>`)
}

export interface DesignFormPage {
  /** `null` for a new design. */
  design: DesignView | null
  values: DesignFormValues
  errors: Map<string, string[]>
  /** What the API said beyond the codes (the SVG sanitiser names what it refused). */
  detail?: string | null
  formats: readonly FileFormat[]
  done?: Words | null
}

export function designFormPage(base: string, session: ConsoleSession, { design, values, errors, detail = null, formats, done = null }: DesignFormPage): string {
  const kind = KIND_WORDS[values.kind] ?? { ko: '디자인', en: 'Design' }
  const title: Words = design ? { ko: '디자인 수정', en: 'Edit design' } : { ko: `새 ${kind.ko} 디자인`, en: `New ${kind.en.toLowerCase()} design` }
  const action = design ? designPath(base, design.id) : `${base}/designs/new`
  const general = errors.get('')
  const badge = values.kind === 'badge'
  return consoleDocument(
    base,
    title,
    html`<section class="card">
<p><a href="${base}/designs">← ${both(DESIGNS_TITLE)}</a></p>
<h1>${design ? design.name : both(title)}</h1>
${done ? html`<p class="done" role="status">${both(done)}</p>` : null}
${errors.size > 0 ? html`<p class="notice" role="alert">${both({ ko: '저장하지 않았습니다. 표시된 항목을 고치세요. 파일은 다시 골라야 합니다.', en: 'Not saved. Correct the fields marked; choose the files again.' })}${detail ? html` <span lang="en">${detail}</span>` : null}</p>` : null}
${general ? errorOf('form', general) : null}
${design ? html`<p>${both({ ko: '종류', en: 'Kind' })}: ${both(kind)} · ${both({ ko: '만든 날', en: 'Created' })}: ${day(design.createdAt)}</p>` : null}
<form method="post" action="${action}" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<input type="hidden" name="kind" value="${values.kind}">
${input('name', values.name, { label: { ko: '이름', en: 'Name' }, errors, required: true })}
${badge ? badgeFields(design, errors) : certificateFields(design, values, errors)}
<button type="submit">저장 <span lang="en">Save</span></button>
</form>
</section>
${design ? previewSection(`${designPath(base, design.id)}/preview`, { badge, certificate: !badge, formats }) : null}`,
    session,
  )
}

function badgeFields(design: DesignView | null, errors: Map<string, string[]>): Markup {
  return fileInput('image', {
    label: { ko: '배지 이미지 (PNG 또는 SVG)', en: 'Badge image (PNG or SVG)' },
    hint: design
      ? { ko: '새 파일을 고르면 바뀝니다. 256 KiB, 한 변 1,024픽셀까지.', en: 'Choose a file to replace it. At most 256 KiB and 1,024 pixels a side.' }
      : {
          ko: '256 KiB, 한 변 1,024픽셀까지. SVG에는 스크립트와 스타일 시트를 쓸 수 없습니다.',
          en: 'At most 256 KiB and 1,024 pixels a side. An SVG holds no script or style sheet.',
        },
    errors,
    required: !design,
  })
}

function certificateFields(design: DesignView | null, values: DesignFormValues, errors: Map<string, string[]>): Markup {
  const logoUrl = design?.layout?.logoUrl ?? null
  return html`${select(
    'orientation',
    values.orientation,
    [
      ['landscape', { ko: '가로', en: 'Landscape' }],
      ['portrait', { ko: '세로', en: 'Portrait' }],
    ],
    { label: { ko: '방향', en: 'Orientation' }, errors },
  )}
${colorInput('primaryColor', values.primaryColor, { label: { ko: '강조 색', en: 'Primary colour' }, errors })}
${colorInput('textColor', values.textColor, { label: { ko: '글자 색', en: 'Text colour' }, errors })}
${colorInput('backgroundColor', values.backgroundColor, { label: { ko: '배경 색', en: 'Background colour' }, errors })}
<fieldset>
<legend>${both({ ko: '인증서에 표시할 항목', en: 'What the certificate shows' })}</legend>
${SHOWN.map((key) => html`<label class="check"><input type="checkbox" name="show.${key}"${values.show[key] ? html` checked` : null}> ${both(SHOWN_WORDS[key])}</label>`)}
${errorOf('show', errors.get('show'))}
</fieldset>
${logoUrl ? html`<p><img class="logo" src="${logoUrl}" alt="현재 로고 · Current logo" height="48"></p>` : null}
${fileInput('logo', {
  label: { ko: '로고 (PNG 또는 SVG, 선택)', en: 'Logo (PNG or SVG, optional)' },
  hint: { ko: 'PDF에는 PNG 로고만 그려집니다.', en: 'The PDF draws PNG logos only.' },
  errors,
})}
${logoUrl ? html`<label class="check"><input type="checkbox" name="removeLogo"${values.removeLogo ? html` checked` : null}> ${both({ ko: '로고 지우기', en: 'Remove the logo' })}</label>` : null}`
}
