import { html, type Markup } from '../http/share-page/html.ts'
import { describedBy, errorOf, labelled } from './form-fields.ts'
import { both, type Words } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { TemplateView } from '../../core/achievements/present.ts'

/** The add form as typed, shown again as sent when refused. */
export interface CoIssuerFormValues {
  coIssuerName: string
  coIssuerUrl: string
  coIssuerVerified: boolean
}

export interface CoIssuerForm {
  values: CoIssuerFormValues
  /** By form field (`coIssuerName`, `coIssuerUrl`; `''` above the forms). */
  errors: Map<string, string[]>
}

export const emptyCoIssuerForm = (): CoIssuerForm => ({ values: { coIssuerName: '', coIssuerUrl: '', coIssuerVerified: false }, errors: new Map() })

/** The form field a co-issuer problem's `errors[].path` names (core/achievements/co-issuers.ts). */
export function coIssuerFieldOfPath(path: string): string | null {
  return path === 'name' ? 'coIssuerName' : path === 'url' ? 'coIssuerUrl' : null
}

/**
 * A template's co-issuers (docs/api.md §2.3): the club first as representative, then its partners, each
 * partner with a form that removes it, and a form that adds one. Every form carries the CSRF token.
 */
export function coIssuerSection(path: string, session: ConsoleSession, template: TemplateView, { values, errors }: CoIssuerForm): Markup {
  const text = (name: 'coIssuerName' | 'coIssuerUrl', label: Words, type: string) =>
    labelled(
      name,
      { label, errors },
      html`<input id="${name}" name="${name}" type="${type}" value="${values[name]}" required${describedBy(name, errors.has(name), false)}>`,
    )
  return html`<section class="card" aria-labelledby="co-issuers-heading">
<h2 id="co-issuers-heading">${both({ ko: '공동 발급자', en: 'Co-issuers' })}</h2>
<p class="hint">${both({ ko: '바꾼 내용은 이후에 발급하는 인증서부터 들어갑니다.', en: 'Changes apply to credentials issued from now on.' })}</p>
${errors.size > 0 ? html`<p class="notice" role="alert">${both({ ko: '바꾸지 않았습니다.', en: 'Nothing was changed.' })}</p>` : null}
${errorOf('co-issuers', errors.get(''))}
<table>
<thead><tr><th scope="col">${both({ ko: '이름', en: 'Name' })}</th><th scope="col">URL</th><th scope="col">${both({ ko: '역할', en: 'Role' })}</th><th scope="col">${both({ ko: '확인', en: 'Verified' })}</th><th scope="col">${both({ ko: '삭제', en: 'Remove' })}</th></tr></thead>
<tbody>
${template.coIssuers.map(
  (issuer) => html`<tr>
<td>${issuer.name}</td>
<td>${issuer.url ?? ''}</td>
<td>${issuer.role === 'representative' ? both({ ko: '대표 발급자', en: 'Representative' }) : both({ ko: '협력 기관', en: 'Partner' })}</td>
<td>${issuer.isVerified ? both({ ko: '예', en: 'Yes' }) : both({ ko: '아니요', en: 'No' })}</td>
<td>${
    issuer.role === 'partner' && issuer.url
      ? html`<form method="post" action="${path}/remove" class="inline">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<input type="hidden" name="url" value="${issuer.url}">
<button type="submit">삭제 <span lang="en">Remove</span><span class="visually-hidden"> ${issuer.name}</span></button>
</form>`
      : null
  }</td>
</tr>`,
)}
</tbody>
</table>
<h3>${both({ ko: '공동 발급자 추가', en: 'Add a co-issuer' })}</h3>
<form method="post" action="${path}">
<input type="hidden" name="csrf" value="${session.csrfToken}">
${text('coIssuerName', { ko: '기관 이름', en: 'Organisation name' }, 'text')}
${text('coIssuerUrl', { ko: '기관 URL (기관을 구별합니다)', en: 'Organisation URL (its identity)' }, 'url')}
<label class="check"><input type="checkbox" name="coIssuerVerified"${values.coIssuerVerified ? html` checked` : null}> ${both({ ko: '클럽이 확인한 기관', en: 'The club has verified it' })}</label>
<button type="submit">추가 <span lang="en">Add</span></button>
</form>
</section>`
}
