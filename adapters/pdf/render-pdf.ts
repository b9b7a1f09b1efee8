import { sha256 } from '@noble/hashes/sha2.js'
import { PDFDocument } from 'pdf-lib'
import { drawCertificate } from './draw-certificate.ts'
import { createLogoImages } from './logo-images.ts'
import { createPdfFontkit } from './fontkit.ts'
import type { CertificateFonts } from './fonts.ts'
import type { CertificateModel } from '../../core/files/certificate-model.ts'

/**
 * OpenType features off for certificate text. pdf-lib draws glyph ids at their advance widths and never
 * reads glyph positions, so the positioning features (kerning, mark placement) were computed for nothing;
 * contextual alternates and ligatures change nothing in precomposed Hangul or in names. Together they
 * were most of the time of a page. Composition and localized forms (ccmp, locl) stay on.
 */
const TEXT_FEATURES = { calt: false, liga: false, clig: false, rclt: false, kern: false, mark: false, mkmk: false }

/** The PDF engine of one renderer: pdf-lib with its fonts parsed once. Loaded on the first render. */
export function createPdfEngine(faces: CertificateFonts) {
  const fontkit = createPdfFontkit()
  // Every certificate of a design carries the same logo: decoded and compressed once, not per document.
  const logos = createLogoImages()
  return {
    async render(model: CertificateModel): Promise<Uint8Array> {
      const doc = await PDFDocument.create({ updateMetadata: false })
      doc.registerFontkit(fontkit)
      // A subset's name carries a six-letter tag (ISO 32000-1 §9.6.4), derived from the model so that
      // the bytes stay a function of the model.
      const seed = JSON.stringify({ ...model, logo: model.logo?.hash ?? null })
      const regular = await doc.embedFont(faces.regular, {
        subset: true,
        customName: `${subsetTag(seed, 'regular')}+Pretendard-Regular`,
        features: TEXT_FEATURES,
      })
      const bold = await doc.embedFont(faces.bold, { subset: true, customName: `${subsetTag(seed, 'bold')}+Pretendard-Bold`, features: TEXT_FEATURES })
      await drawCertificate(doc, { regular, bold }, model, logos)
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

function subsetTag(seed: string, face: string): string {
  const digest = sha256(new TextEncoder().encode(`${face}:${seed}`))
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('')
}
