import { html } from './html.ts'
import { htmlDocument } from './layout.ts'

export interface ErrorPage {
  status: number
  ko: string
  en: string
  /** What to do instead, when the page has its own advice. */
  hint?: { ko: string; en: string }
}

export const NO_SUCH_CREDENTIAL: ErrorPage = { status: 404, ko: '찾을 수 없는 자격증명입니다', en: 'No such credential' }
export const NO_SUCH_PAGE: ErrorPage = { status: 404, ko: '찾을 수 없는 페이지입니다', en: 'Page not found' }
export const METHOD_NOT_ALLOWED: ErrorPage = { status: 405, ko: '허용되지 않는 요청입니다', en: 'Method not allowed' }
export const SERVER_ERROR: ErrorPage = { status: 500, ko: '일시적인 오류가 발생했습니다', en: 'Something went wrong on our side' }
/** The database is away for now (StorageUnavailable): sent with `Retry-After`, like the API's 503. */
export const STORAGE_UNAVAILABLE: ErrorPage = { status: 503, ko: '잠시 서비스를 이용할 수 없습니다', en: 'Temporarily unavailable' }

/** Too many share cards being drawn at once (503 `server-busy`): sent with `Retry-After`. */
export const SERVER_BUSY: ErrorPage = { status: 503, ko: '요청이 많아 잠시 처리할 수 없습니다', en: 'Too busy right now' }

/** The JSON-LD download before its proof is made (docs/data-integrity.md § Signing): sent with `Retry-After`. */
export const JSON_LD_PENDING: ErrorPage = {
  status: 409,
  ko: 'JSON-LD 파일을 준비하고 있습니다',
  en: 'The JSON-LD file is being prepared',
  hint: { ko: '잠시 후 다시 시도하거나, JWT 파일을 내려받으세요.', en: 'Try again in a moment, or download the JWT.' },
}
/** The JSON-LD download of a credential signed before clubcred made proofs: it has its JWT only. */
export const NO_JSON_LD_FORM: ErrorPage = {
  status: 404,
  ko: '이 자격증명에는 JSON-LD 파일이 없습니다',
  en: 'This credential has no JSON-LD file',
  hint: { ko: '이 자격증명은 JWT로만 발급되었습니다. JWT 파일을 내려받으세요.', en: 'It was issued as a JWT only: download the JWT.' },
}

/** An error page on the share host (404, 405, 500, 503), in the style of the share page. */
export function renderErrorPage({ status, ko, en, hint: advice }: ErrorPage): string {
  const hint = advice
    ? html`${advice.ko} <span lang="en">${advice.en}</span>`
    : status >= 500
      ? html`잠시 후 다시 시도해 주세요. <span lang="en">Please try again shortly.</span>`
      : html`주소가 정확한지 확인하거나, 자격증명을 받은 분께 링크를 다시 요청하세요. <span lang="en">Check the address, or ask the holder for the link again.</span>`
  return htmlDocument({
    title: `${ko} · ${en}`,
    body: html`<main class="card">
<div class="not-found">
<p class="eyebrow">${status}</p>
<h1>${ko}</h1>
<p lang="en">${en}</p>
<p>${hint}</p>
</div>
</main>`,
  })
}
