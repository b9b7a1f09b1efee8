import { sha256 } from '@noble/hashes/sha2.js'
import { PDFDocument } from 'pdf-lib'
import { drawCertificate } from './draw-certificate.ts'
import { createPdfFontkit } from './fontkit.ts'
import { loadPretendard, type CertificateFonts } from './fonts.ts'
import type { CertificateModel } from '../../core/files/certificate-model.ts'
import type { CertificateRenderer } from '../../core/ports/certificate-renderer.ts'

/**
 * OpenType features off for certificate text. pdf-lib draws glyph ids at their advance widths and never
 * reads glyph positions, so the positioning features (kerning, mark placement) were computed for nothing;
 * contextual alternates and ligatures change nothing in precomposed Hangul or in names. Together they
 * were most of the time of a page. Composition and localized forms (ccmp, locl) stay on.
 */
const TEXT_FEATURES = { calt: false, liga: false, clig: false, rclt: false, kern: false, mark: false, mkmk: false }

export interface PdfRendererOptions {
  /**
   * The TrueType (or OpenType) faces to embed; they MUST hold Hangul. Default: Pretendard from the
   * `pretendard` package, read from `node_modules` on first use (the only Node-specific part: a runtime
   * without `node:fs` passes the bytes here).
   */
  fonts?: CertificateFonts | (() => Promise<CertificateFonts>)
}

/**
 * The certificate renderer of clubcred: an A4 PDF made with pdf-lib, its text set in an embedded subset
 * of a Korean-capable font, so that names in Hangul print as themselves on any viewer. Deterministic: no
 * clock, no randomness (the document dates are the credential's `validFrom`), so equal models give equal
 * bytes, as the port requires.
 *
 * @example
 * import { createPdfRenderer } from 'clubcred/pdf'
 * const issuer = createIssuer({ storage, masterKey, urls, certificates: createPdfRenderer() })
 */
export function createPdfRenderer({ fonts = loadPretendard }: PdfRendererOptions = {}): CertificateRenderer {
  const fontkit = createPdfFontkit()
  let loaded: Promise<CertificateFonts> | null = null
  const fontBytes = () => {
    loaded ??= (typeof fonts === 'function' ? fonts() : Promise.resolve(fonts)).catch((error: unknown) => {
      loaded = null
      throw error
    })
    return loaded
  }

  return {
    async renderPdf(model: CertificateModel): Promise<Uint8Array> {
      const faces = await fontBytes()
      const doc = await PDFDocument.create({ updateMetadata: false })
      doc.registerFontkit(fontkit)
      // A subset's name carries a six-letter tag (ISO 32000-1 §9.6.4), derived from the model so that
      // the bytes stay a function of the model.
      const tag = subsetTag(model)
      const regular = await doc.embedFont(faces.regular, { subset: true, customName: `${tag}+Pretendard-Regular`, features: TEXT_FEATURES })
      const bold = await doc.embedFont(faces.bold, { subset: true, customName: `${tagOf(tag, 'bold')}+Pretendard-Bold`, features: TEXT_FEATURES })
      await drawCertificate(doc, { regular, bold }, model)
      const created = new Date(model.meta.createdAt)
      doc.setTitle(model.meta.title, { showInWindowTitleBar: true })
      doc.setAuthor(model.meta.author)
      doc.setSubject(model.shareUrl)
      doc.setKeywords([model.number, model.credentialId])
      doc.setLanguage(model.meta.language)
      doc.setCreator('clubcred')
      doc.setProducer('clubcred (pdf-lib)')
      doc.setCreationDate(created)
      doc.setModificationDate(created)
      return doc.save()
    },
  }
}

function subsetTag(model: CertificateModel): string {
  return tagOf(JSON.stringify({ ...model, logo: model.logo?.hash ?? null }), 'regular')
}

function tagOf(seed: string, face: string): string {
  const digest = sha256(new TextEncoder().encode(`${face}:${seed}`))
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('')
}
