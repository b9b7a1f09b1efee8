/**
 * @module clubcred/pdf: certificate PDFs (docs/api.md §4.6 `format=pdf`) with pdf-lib and an embedded subset of
 * Pretendard, a Korean-capable font. Pass the renderer to `createIssuer` as `certificates`; without it
 * an issuer serves only the baked badge formats (`png`, `svg`).
 *
 * @example
 * import { createIssuer } from 'clubcred'
 * import { createPdfRenderer } from 'clubcred/pdf'
 * const issuer = createIssuer({ storage, masterKey, urls, certificates: createPdfRenderer() })
 */
export { createPdfRenderer, type PdfRendererOptions } from './renderer.ts'
export { loadPretendard, type CertificateFonts } from './fonts.ts'
