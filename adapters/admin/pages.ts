import { html, toHtml, type Markup } from '../http/share-page/html.ts'
import type { ClubOverview } from '../../core/admins/overview.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import { CONSOLE_ROUTES } from './route-table.ts'

/** Korean first, English beside it (as the share page). */
export interface Words {
  ko: string
  en: string
}

/** Korean, then English beside it in a span that says its language. */
export const both = ({ ko, en }: Words) => html`${ko} <span lang="en">${en}</span>`

/** The entries of the route table that have one, in its order; the line breaks after the fourth, as it always has. */
const MENU = CONSOLE_ROUTES.flatMap((route) => ('menu' in route ? [{ path: route.path, words: route.menu }] : []))
const menu = (base: string) =>
  MENU.map(({ path, words }, index) => html`${index === 0 ? '' : index === 4 ? '\n' : ' '}<a href="${base}${path}">${both(words)}</a>`)

/**
 * The document around every console page: `lang="ko"`, the style sheet as a file, not indexed; `head` is
 * what a page adds to its head (a script file, a refresh), never inline code. Its first link skips the
 * menu: a keyboard user reaches the page's own controls with one Tab after it.
 */
export function consoleDocument(base: string, title: Words, body: Markup, session: ConsoleSession | null = null, head: Markup | null = null): string {
  const top = session
    ? html`<header>
<p>${session.club} · ${session.name} (${session.email})</p>
<nav>${menu(base)}</nav>
<form method="post" action="${base}/logout">
<input type="hidden" name="csrf" value="${session.csrfToken}">
<button type="submit">로그아웃 <span lang="en">Log out</span></button>
</form>
</header>`
    : null
  return (
    '<!doctype html>\n' +
    toHtml(html`<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title.ko} · ${title.en} · clubcred</title>
<link rel="stylesheet" href="${base}/admin.css">
${head}
</head>
<body>
<a class="skip" href="#main">본문으로 건너뛰기 <span lang="en">Skip to content</span></a>
${top}
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>
`)
  )
}

/** A field with its label and, when refused, its error beside it (`aria-describedby`). */
function field(name: string, label: Words, type: string, autocomplete: string, error: Words | null, value = ''): Markup {
  return html`<label for="${name}">${both(label)}</label>
<input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required value="${value}"${error ? html` aria-invalid="true" aria-describedby="${name}-error"` : null}>
${error ? html`<p class="error" id="${name}-error">${both(error)}</p>` : null}`
}

/** The console's one script (/admin/passkey.js), loaded by the pages with passkey controls only. */
export const passkeyScript = (base: string): Markup => html`<script src="${base}/passkey.js" defer></script>`

/**
 * A passkey control: `hidden` until the script finds `PublicKeyCredential` (a browser without it, or
 * without script, never sees a button that cannot work); its status line says what happened.
 */
function passkeyBox(base: string, mode: 'login' | 'setup', button: Words, nameField: boolean): Markup {
  return html`<div class="passkey" data-passkey="${mode}" data-base="${base}" hidden>
${
  nameField
    ? html`<label for="passkey-name">패스키 이름 (선택) <span lang="en">Passkey name (optional)</span></label>
<input id="passkey-name" name="passkey-name" type="text" maxlength="64" autocomplete="off">`
    : null
}
<button type="button">${both(button)}</button>
<p class="passkey-status" role="status"></p>
</div>
${passkeyScript(base)}`
}

export const LOGIN_TITLE: Words = { ko: '관리자 로그인', en: 'Staff login' }
export const INVALID_LOGIN: Words = { ko: '이메일 또는 비밀번호가 올바르지 않습니다.', en: 'The e-mail or password is not correct.' }

export function loginPage(
  base: string,
  { email = '', notice = null, done = null, passkeys = false }: { email?: string; notice?: Words | null; done?: Words | null; passkeys?: boolean } = {},
): string {
  return consoleDocument(
    base,
    LOGIN_TITLE,
    html`<section class="card">
<h1>${both(LOGIN_TITLE)}</h1>
${done ? html`<p class="done" role="status">${both(done)}</p>` : null}
${notice ? html`<p class="notice" role="alert">${both(notice)}</p>` : null}
<form method="post" action="${base}/login">
${field('email', { ko: '이메일', en: 'E-mail' }, 'email', 'username', null, email)}
${field('password', { ko: '비밀번호', en: 'Password' }, 'password', 'current-password', null)}
<button type="submit">로그인 <span lang="en">Log in</span></button>
</form>
${passkeys ? passkeyBox(base, 'login', { ko: '패스키로 로그인', en: 'Log in with a passkey' }, false) : null}
</section>`,
  )
}

export const SETUP_TITLE: Words = { ko: '비밀번호 설정', en: 'Choose your password' }

export function setupPage(
  base: string,
  { token, email, errors = {}, passkeys = false }: { token: string; email: string; errors?: { password?: Words; confirmation?: Words }; passkeys?: boolean },
): string {
  return consoleDocument(
    base,
    SETUP_TITLE,
    html`<section class="card">
<h1>${both(SETUP_TITLE)}</h1>
<p>${email}</p>
<form method="post" action="${base}/setup">
<input type="hidden" name="token" value="${token}">
<input type="hidden" name="username" value="${email}" autocomplete="username">
${field('password', { ko: '새 비밀번호 (12자 이상)', en: 'New password (at least 12 characters)' }, 'password', 'new-password', errors.password ?? null)}
${field('confirmation', { ko: '비밀번호 확인', en: 'Repeat the password' }, 'password', 'new-password', errors.confirmation ?? null)}
<button type="submit">설정 <span lang="en">Set password</span></button>
</form>
${passkeys ? passkeyBox(base, 'setup', { ko: '패스키도 등록', en: 'Register a passkey too' }, true) : null}
</section>`,
  )
}

/** A page that only says something (a dead link, a refused request, a missing page). */
export function messagePage(base: string, title: Words, text: Words, session: ConsoleSession | null = null): string {
  return consoleDocument(base, title, html`<section class="card"><h1>${both(title)}</h1><p>${both(text)}</p></section>`, session)
}

const COUNTS: [keyof Pick<ClubOverview, 'templates' | 'issued' | 'pending' | 'revoked' | 'expired'>, Words][] = [
  ['templates', { ko: '템플릿', en: 'Templates' }],
  ['issued', { ko: '발급', en: 'Issued' }],
  ['pending', { ko: '서명 대기', en: 'Pending' }],
  ['revoked', { ko: '취소', en: 'Revoked' }],
  ['expired', { ko: '만료', en: 'Expired' }],
]

/** `activity`: the recent activity in words and the weekly chart, drawn beside (overview-activity.ts, activity-chart.ts). */
export function overviewPage(base: string, session: ConsoleSession, overview: ClubOverview, activity: Markup, done: Words | null = null): string {
  return consoleDocument(
    base,
    { ko: '개요', en: 'Overview' },
    html`<section class="card">
<h1>${overview.club.name} <span lang="en">Overview</span></h1>
${done ? html`<p class="done" role="status">${both(done)}</p>` : null}
<dl class="counts">
${COUNTS.map(([key, words]) => html`<div><dt>${both(words)}</dt><dd id="count-${key}">${overview[key]}</dd></div>`)}
</dl>
</section>
${activity}`,
    session,
  )
}
