import { html, type Markup } from '../http/share-page/html.ts'
import { both } from './pages.ts'
import type { FileFormat } from '../../core/files/prepare-file.ts'

/**
 * The previews of a template or a design (docs/admin-console.md § Previews): the badge as an image, the
 * certificate as a link to its PDF, only where this server renders PDFs. `path` is the preview route.
 */
export function previewSection(
  path: string,
  { badge, certificate, formats }: { badge: boolean; certificate: boolean; formats: readonly FileFormat[] },
): Markup {
  const pdf = certificate && formats.includes('pdf')
  return html`<section class="card" aria-labelledby="preview-heading">
<h2 id="preview-heading">${both({ ko: '미리 보기', en: 'Preview' })}</h2>
${
  badge
    ? html`<p><img class="preview" src="${path}?format=png" alt="배지 미리 보기 · Badge preview" width="160" height="160"></p>
<p><a href="${path}?format=png">${both({ ko: '배지 PNG', en: 'Badge PNG' })}</a> · <a href="${path}?format=svg">${both({ ko: '배지 SVG', en: 'Badge SVG' })}</a></p>`
    : null
}
${
  pdf
    ? html`<p><a href="${path}?format=pdf">${both({ ko: '인증서 미리 보기 (PDF, 견본 수령자)', en: 'Certificate preview (PDF, sample recipient)' })}</a></p>`
    : certificate
      ? html`<p class="hint">${both({ ko: '이 서버는 인증서 PDF를 만들지 않습니다.', en: 'This server does not render certificate PDFs.' })}</p>`
      : null
}
</section>`
}
