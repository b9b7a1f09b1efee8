import { html, type Markup } from '../http/share-page/html.ts'
import { consoleDocument, both, type Words } from './pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { TemplateView } from '../../core/achievements/present.ts'
import type { IssuanceDetail, IssuanceItem, IssuanceStatus } from '../../core/issuances/present.ts'
import type { Page } from '../../core/lists/cursor.ts'
import { SEARCH_FIELDS, SEARCH_TERM_MAX, type SearchField } from '../../core/issuances/search.ts'
import { reissueFormOf, reissueSection, renewFieldset, versionsSection, type ReissueFormState } from './reissue-section.ts'
import { walletSection } from './issuance-wallet-section.ts'

export const ISSUANCES_TITLE: Words = { ko: '발급 내역', en: 'Issuances' }

export const STATUS_WORDS: Record<IssuanceStatus, Words> = {
  pending: { ko: '서명 대기', en: 'Pending' },
  valid: { ko: '유효', en: 'Issued' },
  revoked: { ko: '취소됨', en: 'Revoked' },
  expired: { ko: '만료', en: 'Expired' },
}

/** An issuance's page: `{base}/issuances/{id}`. */
export const issuancePath = (base: string, id: number) => `${base}/issuances/${id}`

const day = (iso: string) => iso.slice(0, 10)
const when = (iso: string | null) => (iso === null ? html`—` : html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`)

/** The list's filters as the page's form sends them; `null` when not given. */
export interface IssuanceFilters {
  achievementId: number | null
  status: IssuanceStatus | null
  /** The search term as typed (trimmed): personal data, kept in the page and its links only. */
  q: string
  by: SearchField
  /** Only valid issuances expiring within 30 days (core/issuances/search.ts `EXPIRING_SOON_DAYS`). */
  expiring: boolean
  /** Only issuances no wallet has taken yet. */
  notClaimed: boolean
}

const SEARCH_FIELD_WORDS: Record<SearchField, Words> = {
  name: { ko: '이름 (앞부분)', en: 'Name (start)' },
  email: { ko: '이메일 (전체)', en: 'E-mail (whole)' },
  externalUserId: { ko: '외부 사용자 ID (전체)', en: 'External user id (whole)' },
}
const STATUS_ORDER: IssuanceStatus[] = ['pending', 'valid', 'revoked', 'expired']

/** The list's query string: every filter kept on every link, with the cursor of a next page. */
function listHref(base: string, filters: IssuanceFilters, cursor: string | null): string {
  const query = new URLSearchParams()
  if (filters.q !== '') {
    query.set('q', filters.q)
    query.set('by', filters.by)
  }
  if (filters.status !== null) query.set('status', filters.status)
  if (filters.achievementId !== null) query.set('achievementId', String(filters.achievementId))
  if (filters.expiring) query.set('expiring', 'true')
  if (filters.notClaimed) query.set('claimed', 'false')
  if (cursor !== null) query.set('cursor', cursor)
  const text = query.toString()
  return `${base}/issuances${text ? `?${text}` : ''}`
}

export interface IssuanceListPage {
  page: Page<IssuanceItem>
  /** The club's templates, for the filter and the names of the rows. */
  templates: TemplateView[]
  filters: IssuanceFilters
  /** Refused filters by field (`q`, `by`, `status`): the form is shown again with each beside its field. */
  errors?: Map<string, Words>
  /** What a renewal of rows did, shown above the list. */
  done?: Words | null
}

export function issuanceListPage(
  base: string,
  session: ConsoleSession,
  { page, templates, filters, errors = new Map(), done = null }: IssuanceListPage,
): string {
  const names = new Map(templates.map((template) => [template.id, template.name]))
  const rows = page.data.map(
    (item) => html`<tr>
<td>${pickBox(item)}</td>
<td><a href="${issuancePath(base, item.id)}">${item.recipient.name}</a><br><span class="en">${item.recipient.email}</span></td>
<td>${names.get(item.achievementId) ?? `#${item.achievementId}`}</td>
<td class="status-${item.status}">${both(STATUS_WORDS[item.status])}</td>
<td><time datetime="${item.createdAt}">${day(item.createdAt)}</time></td>
</tr>`,
  )
  const invalid = (name: string) => (errors.has(name) ? html` aria-invalid="true" aria-describedby="${name}-error"` : null)
  const error = (name: string) => (errors.has(name) ? html`<p class="error" id="${name}-error">${both(errors.get(name)!)}</p>` : null)
  const searching = filters.q !== ''
  return consoleDocument(
    base,
    ISSUANCES_TITLE,
    html`<section class="card">
<h1>${both(ISSUANCES_TITLE)}</h1>
${done ? html`<p class="done" role="status">${both(done)}</p>` : null}
<form method="get" action="${base}/issuances" class="filter" role="search">
<div>
<label for="q">${both({ ko: '받는 사람 검색', en: 'Find a recipient' })}</label>
<input id="q" name="q" type="search" maxlength="${String(SEARCH_TERM_MAX)}" autocomplete="off" value="${filters.q}" aria-describedby="q-hint"${invalid('q')}>
<p class="hint" id="q-hint">${both({ ko: '이름은 앞부분으로, 이메일과 외부 ID는 전체가 같아야 찾습니다.', en: 'A name by its start; an e-mail or external id whole.' })}</p>
${error('q')}
</div>
<div>
<label for="by">${both({ ko: '검색 기준', en: 'Search in' })}</label>
<select id="by" name="by"${invalid('by')}>
${SEARCH_FIELDS.map((field) => html`<option value="${field}"${field === filters.by ? html` selected` : null}>${SEARCH_FIELD_WORDS[field].ko} · ${SEARCH_FIELD_WORDS[field].en}</option>`)}
</select>
${error('by')}
</div>
<div>
<label for="status">${both({ ko: '상태', en: 'Status' })}</label>
<select id="status" name="status"${invalid('status')}>
<option value="">전체 · All</option>
${STATUS_ORDER.map((status) => html`<option value="${status}"${status === filters.status ? html` selected` : null}>${STATUS_WORDS[status].ko} · ${STATUS_WORDS[status].en}</option>`)}
</select>
${error('status')}
</div>
<div>
<label for="achievementId">${both({ ko: '템플릿', en: 'Template' })}</label>
<select id="achievementId" name="achievementId">
<option value="">전체 · All</option>
${templates.map((template) => html`<option value="${String(template.id)}"${template.id === filters.achievementId ? html` selected` : null}>${template.name}</option>`)}
</select>
</div>
<fieldset class="checks">
<legend>${both({ ko: '더 좁히기', en: 'Narrow down' })}</legend>
<label class="check"><input type="checkbox" name="expiring" value="true"${filters.expiring ? html` checked` : null}> ${both({ ko: '30일 안에 만료', en: 'Expiring within 30 days' })}</label>
<label class="check"><input type="checkbox" name="claimed" value="false"${filters.notClaimed ? html` checked` : null}> ${both({ ko: '아직 지갑에 없음', en: 'Not in a wallet yet' })}</label>
</fieldset>
<button type="submit">보기 <span lang="en">Show</span></button>
</form>
${searching && filters.by === 'name' ? html`<p class="hint">${both({ ko: '이름순, 같은 이름은 최신순입니다.', en: 'By name; the same name newest first.' })}</p>` : null}
${
  page.data.length === 0
    ? html`<p>${
        searching || filters.status !== null || filters.achievementId !== null || filters.expiring || filters.notClaimed
          ? both({ ko: '조건에 맞는 발급 내역이 없습니다.', en: 'No issuances match.' })
          : both({ ko: '발급 내역이 없습니다.', en: 'No issuances.' })
      }</p>`
    : html`<table>
<thead><tr><th scope="col"><span class="visually-hidden">${both({ ko: '선택', en: 'Choose' })}</span></th><th scope="col">${both({ ko: '받는 사람', en: 'Recipient' })}</th><th scope="col">${both({ ko: '템플릿', en: 'Template' })}</th><th scope="col">${both({ ko: '상태', en: 'Status' })}</th><th scope="col">${both({ ko: '발급일', en: 'Issued on' })}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
${page.meta.nextCursor ? html`<p><a href="${listHref(base, filters, page.meta.nextCursor)}">다음 <span lang="en">Next</span></a></p>` : null}
</section>
${page.data.length > 0 ? bulkForm(base, session, filters) : null}`,
    session,
  )
}

/** A row's box of the bulk form (`form="bulk"`: the table stays outside the form); a revoked row has none. */
function pickBox(item: IssuanceItem): Markup | null {
  if (item.status === 'revoked') return null
  const id = `pick-${item.id}`
  return html`<input type="checkbox" class="pick" id="${id}" name="id" value="${String(item.id)}" form="bulk"><label for="${id}" class="visually-hidden">${item.recipient.name} ${both({ ko: '선택', en: 'choose' })}</label>`
}

/**
 * Revoking many (docs/admin-console.md § Issuances): the rows ticked, or every row of the current filter
 * up to 1,000; the next page asks for the one confirmation.
 */
function bulkForm(base: string, session: ConsoleSession, filters: IssuanceFilters): Markup {
  const kept = (name: string, value: string | null) => (value === null || value === '' ? null : html`<input type="hidden" name="${name}" value="${value}">`)
  return html`<section class="card">
<h2>${both({ ko: '선택한 발급 취소·갱신', en: 'Revoke or renew several' })}</h2>
<form id="bulk" method="post" action="${base}/issuances/revoke">
<input type="hidden" name="csrf" value="${session.csrfToken}">
${kept('q', filters.q)}${kept('by', filters.q === '' ? null : filters.by)}${kept('status', filters.status)}${kept('achievementId', filters.achievementId === null ? null : String(filters.achievementId))}${kept('expiring', filters.expiring ? 'true' : null)}${kept('claimed', filters.notClaimed ? 'false' : null)}
<fieldset>
<legend>${both({ ko: '어느 발급을?', en: 'Which issuances' })}</legend>
<label class="check"><input type="radio" name="scope" value="chosen" checked> ${both({ ko: '위에서 선택한 행', en: 'The rows chosen above' })}</label>
<label class="check"><input type="radio" name="scope" value="filter"> ${both({ ko: '현재 조건의 모든 발급 (1,000개까지)', en: 'Every issuance of this filter (up to 1,000)' })}</label>
</fieldset>
<button type="submit">취소할 발급 확인 <span lang="en">Review the revocation</span></button>
${renewFieldset(`${base}/issuances/renew`)}
</form>
</section>`
}

export interface IssuanceDetailPage {
  detail: IssuanceDetail
  /** The reason as typed, when the revoke form is shown again. */
  reason?: string
  /** Errors of the revoke form by field (`confirm`, `reason`). */
  errors?: Map<string, Words>
  done?: Words | null
  /** The reissue form as typed, when it is shown again; else the issuance's values. */
  reissue?: ReissueFormState
  /** The delivery section (delivery-section.ts): the mails and the resend form. */
  delivery?: Markup | null
}

export function issuanceDetailPage(
  base: string,
  session: ConsoleSession,
  { detail, reason = '', errors = new Map(), done = null, reissue = reissueFormOf(detail), delivery = null }: IssuanceDetailPage,
): string {
  const credential = detail.credential
  const row = (label: Words, value: Markup | string) => html`<div><dt>${both(label)}</dt><dd>${value}</dd></div>`
  return consoleDocument(
    base,
    { ko: '발급 상세', en: 'Issuance' },
    html`<section class="card">
<p><a href="${base}/issuances">← ${both(ISSUANCES_TITLE)}</a></p>
<h1>${detail.recipient.name} · ${detail.form.name}</h1>
${done ? html`<p class="done" role="status">${both(done)}</p>` : null}
<dl class="facts">
${row({ ko: '상태', en: 'Status' }, html`<span id="status" class="status-${detail.status}">${both(STATUS_WORDS[detail.status])}</span>`)}
${row({ ko: '받는 사람', en: 'Recipient' }, html`${detail.recipient.name} &lt;${detail.recipient.email}&gt;`)}
${row({ ko: '외부 사용자 ID', en: 'External user id' }, detail.recipient.externalUserId ?? '—')}
${row({ ko: '템플릿', en: 'Template' }, html`<a href="${base}/templates/${String(detail.achievementId)}">${detail.form.name}</a>`)}
${row({ ko: '발급 번호', en: 'Issuance id' }, String(detail.id))}
${row({ ko: '발급 요청', en: 'Created' }, when(detail.createdAt))}
${row({ ko: '서명', en: 'Signed' }, when(credential?.issuedAt ?? null))}
${row({ ko: '만료', en: 'Expires' }, when(detail.expiresAt))}
${row({ ko: '취소', en: 'Revoked' }, when(detail.revokedAt))}
${detail.revocationReason !== null ? row({ ko: '취소 사유', en: 'Reason' }, detail.revocationReason) : null}
</dl>
</section>
${walletSection(detail)}
${credential ? links(credential, `${issuancePath(base, detail.id)}/file`) : html`<section class="card"><p>${both({ ko: '아직 서명되지 않았습니다. 서명되면 링크가 나타납니다.', en: 'Not signed yet: the links appear once it is.' })}</p></section>`}
${versionsSection(base, detail)}
${detail.status === 'revoked' ? null : reissueSection(`${issuancePath(base, detail.id)}/reissue`, session, reissue)}
${delivery}
${detail.status === 'revoked' ? null : revokeForm(base, session, detail, reason, errors)}`,
    session,
  )
}

/** The files through the console (the API's file operation), and the credential's public addresses: the share page (with its JWT and JSON-LD downloads), the JWT, the verification result. */
function links(credential: NonNullable<IssuanceDetail['credential']>, file: string): Markup {
  const share = credential.shareUrl
  return html`<section class="card">
<h2>${both({ ko: '링크', en: 'Links' })}</h2>
<ul class="links">
<li><a href="${file}?format=pdf">${both({ ko: '인증서 PDF', en: 'Certificate PDF' })}</a></li>
<li><a href="${file}?format=png">${both({ ko: '배지 PNG', en: 'Badge PNG' })}</a> · <a href="${file}?format=svg">SVG</a></li>
<li><a href="${share}">${both({ ko: '공유 페이지', en: 'Share page' })}</a> <code>${share}</code></li>
<li><a href="${share}/credential.jwt">${both({ ko: 'JWT 내려받기', en: 'Download JWT' })}</a></li>
<li><a href="${share}/credential.json">${both({ ko: 'JSON-LD 내려받기', en: 'Download JSON-LD' })}</a></li>
<li><a href="${credential.verifyUrl}">${both({ ko: '검증 결과', en: 'Verification result' })}</a></li>
</ul>
</section>`
}

/**
 * Revoking cannot be undone, so the form asks for a reason and a ticked confirmation; a POST without it
 * is shown again, unchanged, with the box marked (a confirmation that needs no script).
 */
function revokeForm(base: string, session: ConsoleSession, detail: IssuanceDetail, reason: string, errors: Map<string, Words>): Markup {
  const reasonError = errors.get('reason')
  const confirmError = errors.get('confirm')
  return html`<section class="card">
<h2>${both({ ko: '발급 취소', en: 'Revoke' })}</h2>
${errors.size > 0 ? html`<p class="notice" role="alert">${both({ ko: '취소하지 않았습니다.', en: 'Not revoked.' })}</p>` : null}
<form method="post" action="${issuancePath(base, detail.id)}/revoke">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<label for="reason">${both({ ko: '사유 (선택, 500자까지)', en: 'Reason (optional, up to 500 characters)' })}</label>
<textarea id="reason" name="reason" rows="3"${reasonError ? html` aria-invalid="true" aria-describedby="reason-error"` : null}>
${reason}</textarea>
${reasonError ? html`<p class="error" id="reason-error">${both(reasonError)}</p>` : null}
<label class="check"><input type="checkbox" name="confirm" value="yes"${confirmError ? html` aria-invalid="true" aria-describedby="confirm-error"` : null}> ${both(
    {
      ko: '취소하면 되돌릴 수 없으며, 검증하는 누구에게나 취소됨으로 보입니다.',
      en: 'Revoking cannot be undone; everyone who verifies sees it revoked.',
    },
  )}</label>
${confirmError ? html`<p class="error" id="confirm-error">${both(confirmError)}</p>` : null}
<button type="submit">취소하기 <span lang="en">Revoke</span></button>
</form>
</section>`
}
