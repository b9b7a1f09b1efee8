import { loadPretendard, type CertificateFonts } from './fonts.ts'
import type { CertificateModel } from '../../core/files/certificate-model.ts'
import type { CertificateRenderer } from '../../core/ports/certificate-renderer.ts'

export interface PdfRendererOptions {
  /**
   * The TrueType (or OpenType) faces to embed; they MUST hold Hangul. Default: the Pretendard faces
   * shipped beside this module (`fonts/`), read on first use (the only Node-specific part: a runtime
   * without `node:fs` passes the bytes here).
   */
  fonts?: CertificateFonts | (() => Promise<CertificateFonts>)
}

/**
 * The certificate renderer of clubcred: an A4 PDF made with pdf-lib, its text set in an embedded subset
 * of a Korean-capable font, so that names in Hangul print as themselves on any viewer. Deterministic: no
 * clock, no randomness (the document dates are the credential's `validFrom`), so equal models give equal
 * bytes, as the port requires. pdf-lib, fontkit and the fonts load on the first render, not with the
 * module, so that a server or CLI that never renders does not pay for them.
 *
 * @example
 * import { createPdfRenderer } from 'clubcred/pdf'
 * const issuer = createIssuer({ storage, masterKey, urls, certificates: createPdfRenderer() })
 */
export function createPdfRenderer({ fonts = loadPretendard }: PdfRendererOptions = {}): CertificateRenderer {
  let engine: Promise<{ render(model: CertificateModel): Promise<Uint8Array> }> | null = null
  const load = async () => {
    const [{ createPdfEngine }, faces] = await Promise.all([import('./render-pdf.ts'), typeof fonts === 'function' ? fonts() : fonts])
    return createPdfEngine(faces)
  }
  return {
    async renderPdf(model: CertificateModel): Promise<Uint8Array> {
      // A failed load (a missing font file) is not cached: the next render tries again.
      engine ??= load().catch((error: unknown) => {
        engine = null
        throw error
      })
      return (await engine).render(model)
    },
  }
}
