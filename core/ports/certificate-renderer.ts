import type { CertificateModel } from '../files/certificate-model.ts'

/**
 * Renders certificate documents (the PDF of `GET .../issuances/{id}/file?format=pdf`, docs/api.md §4.6). Core
 * assembles the model from the signed credential and its snapshot; the renderer only lays it out
 * (`createPdfRenderer()` from `clubcred/pdf`, pdf-lib with an embedded Korean font).
 *
 * - `renderPdf` MUST resolve to a complete PDF document and MUST reject (never resolve to partial bytes)
 *   when it cannot render.
 * - It MUST be deterministic: the same model gives the same bytes, because the file's strong `ETag` is
 *   computed from the model without rendering it.
 * - It MUST draw every text of the model in a font that has its glyphs (Hangul included), embedded in
 *   the document, and MUST mark a model whose `status` is `revoked` as revoked on the page.
 * - Calls MAY run concurrently; the renderer MUST NOT share mutable state between them.
 */
export interface CertificateRenderer {
  renderPdf(model: CertificateModel): Promise<Uint8Array>
}
