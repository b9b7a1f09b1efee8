import {
  PageSizes,
  PDFDocument,
  degrees,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingColor,
  type PDFFont,
  type PDFPage,
  type RGB,
} from 'pdf-lib'
import type { CertificateModel } from '../../core/files/certificate-model.ts'
import type { LogoImages } from './logo-images.ts'
import { qrRuns } from '../shared/qr-runs.ts'

/** The two faces the page is set in, embedded (as subsets) in its document. */
export interface PageFonts {
  regular: PDFFont
  bold: PDFFont
}

const REVOKED_RED = rgb(0.78, 0.08, 0.1)
const MUTED = 0.42

/**
 * Lays a certificate model out on one A4 page: frame, heading, recipient, achievement, engraved
 * description and criteria, dates and number, issuer and partners, QR code to the share page, and a
 * diagonal REVOKED stamp when revoked. Everything is placed from the page size, so landscape and
 * portrait share the code; long texts wrap and are cut with an ellipsis rather than overflow.
 */
export async function drawCertificate(doc: PDFDocument, fonts: PageFonts, model: CertificateModel, logos: LogoImages): Promise<void> {
  const [short, long] = PageSizes.A4
  const landscape = model.layout.orientation === 'landscape'
  const page = doc.addPage(landscape ? [long, short] : [short, long])
  const { width, height } = page.getSize()
  const primary = hex(model.layout.primaryColor)
  const text = hex(model.layout.textColor)
  const muted = mix(text, hex(model.layout.backgroundColor), MUTED)
  const draw = createWriter(page, fonts)

  page.drawRectangle({ x: 0, y: 0, width, height, color: hex(model.layout.backgroundColor) })
  page.drawRectangle({ x: 18, y: 18, width: width - 36, height: height - 36, borderColor: primary, borderWidth: 2.5 })
  page.drawRectangle({ x: 26, y: 26, width: width - 52, height: height - 52, borderColor: primary, borderWidth: 0.75 })

  const inner = { left: 60, right: width - 60, width: width - 120 }
  let y = height - 70

  if (model.logo?.mediaType === 'image/png') await logos.draw(doc, page, model.logo, { x: inner.left, top: height - 44, box: 56 })

  if (model.status === 'revoked') {
    const notice = model.revokedOn
      ? `이 인증서는 ${model.revokedOn.ko}에 취소되었습니다 · This certificate was revoked on ${model.revokedOn.en}`
      : '이 인증서는 취소되었습니다 · This certificate has been revoked'
    draw.centered(notice, { y: height - 44, size: 9.5, bold: true, color: REVOKED_RED, maxWidth: inner.width - 140 })
  }

  y = draw.centered(model.heading.ko, { y: y - 26, size: 30, bold: true, color: primary, maxWidth: inner.width })
  y = draw.centered(model.heading.en.toUpperCase(), { y: y - 20, size: 10.5, color: muted, maxWidth: inner.width })

  y = draw.centered('다음 분에게 이 증서를 수여합니다 · Presented to', { y: y - (landscape ? 34 : 56), size: 10, color: muted, maxWidth: inner.width })
  y = draw.centered(model.recipientName, { y: y - 42, size: 34, bold: true, color: text, maxWidth: inner.width })
  const rule = Math.min(inner.width, Math.max(300, fonts.bold.widthOfTextAtSize(model.recipientName, 34) + 40)) / 2
  page.drawLine({ start: { x: width / 2 - rule, y: y - 10 }, end: { x: width / 2 + rule, y: y - 10 }, thickness: 0.8, color: primary })

  y = draw.centered(model.achievement.name, { y: y - 44, size: 21, bold: true, color: primary, maxWidth: inner.width })
  if (model.achievement.nameEn) y = draw.centered(model.achievement.nameEn, { y: y - 18, size: 12, color: muted, maxWidth: inner.width })

  const bottom = footerTop(model.layout.orientation)
  const room = (lines: number, leading: number) => Math.max(0, Math.min(lines, Math.floor((y - bottom - 24) / leading)))
  if (model.achievement.description) {
    y = draw.paragraph(model.achievement.description, {
      y: y - 30,
      size: 11,
      leading: 16,
      color: text,
      maxWidth: inner.width - 60,
      maxLines: room(landscape ? 3 : 6, 16),
    })
  }
  if (model.achievement.criteria) {
    y = draw.paragraph(model.achievement.criteria, {
      y: y - 22,
      size: 8.5,
      leading: 12,
      color: muted,
      maxWidth: inner.width - 80,
      maxLines: room(landscape ? 3 : 6, 12),
    })
  }

  drawFooter(page, draw, model, { left: inner.left, right: inner.right, primary, text, muted })

  if (model.status === 'revoked') drawRevokedStamp(page, fonts, model)
}

interface FooterStyle {
  left: number
  right: number
  primary: RGB
  text: RGB
  muted: RGB
}

/**
 * Dates and number bottom left, the QR code bottom right, the issuer between them on a landscape page and
 * above them on a portrait one (too narrow for three columns).
 */
function drawFooter(page: PDFPage, draw: Writer, model: CertificateModel, style: FooterStyle): void {
  const { width } = page.getSize()
  const landscape = model.layout.orientation === 'landscape'
  const base = 58
  const qrSize = 74
  const hasQr = model.qrUrl !== null
  const issuerWidth = 240
  const factsWidth = landscape ? width / 2 - issuerWidth / 2 - 20 - style.left : style.right - style.left - (hasQr ? qrSize + 20 : 0)

  let y = base + 74
  const facts: { label: string; value: string; bold?: boolean; alert?: boolean }[] = [
    { label: '발급일 Issued', value: `${model.issuedOn.ko} · ${model.issuedOn.en}` },
    ...(model.validUntil
      ? [
          model.status === 'expired'
            ? { label: '만료됨 Expired', value: `${model.validUntil.ko} · ${model.validUntil.en}`, alert: true }
            : { label: '유효기간 Valid until', value: `${model.validUntil.ko} · ${model.validUntil.en}` },
        ]
      : []),
    { label: '인증번호 No.', value: model.number, bold: true },
  ]
  for (const fact of facts) {
    draw.left(fact.label, { x: style.left, y, size: 7.5, color: style.muted, maxWidth: factsWidth })
    draw.left(fact.value, { x: style.left, y: y - 11, size: 9.5, bold: fact.bold ?? false, color: fact.alert ? REVOKED_RED : style.text, maxWidth: factsWidth })
    y -= 26
  }

  const issuer = { x: width / 2, y: landscape ? base + 50 : base + 150 }
  page.drawLine({
    start: { x: issuer.x - issuerWidth / 2, y: issuer.y - 8 },
    end: { x: issuer.x + issuerWidth / 2, y: issuer.y - 8 },
    thickness: 0.6,
    color: style.primary,
  })
  draw.centered(model.issuer.name, { x: issuer.x, y: issuer.y, size: 13, bold: true, color: style.text, maxWidth: issuerWidth })
  draw.centered('발급 기관 Issuer', { x: issuer.x, y: issuer.y - 20, size: 7.5, color: style.muted, maxWidth: issuerWidth })
  if (model.coIssuers.length > 0) {
    draw.paragraph(`공동 발급 Co-issued with: ${model.coIssuers.map((partner) => partner.name).join(', ')}`, {
      x: issuer.x,
      y: issuer.y - 34,
      size: 7.5,
      leading: 10,
      color: style.muted,
      maxWidth: issuerWidth,
      maxLines: 2,
    })
  }

  if (hasQr) {
    const x = style.right - qrSize
    drawQrCode(page, model.qrUrl!, { x, y: base + 8, size: qrSize, color: style.text })
    draw.centered('검증하기 Verify', { x: x + qrSize / 2, y: base - 4, size: 7, color: style.muted, maxWidth: qrSize + 40 })
    draw.right(model.shareUrl, { x: style.right, y: base - 14, size: 5.5, color: style.muted, maxWidth: style.right - style.left })
  }
}

/** Where the footer begins: the body above it must stay clear of this height. */
function footerTop(orientation: CertificateModel['layout']['orientation']): number {
  return orientation === 'landscape' ? 150 : 240
}

/** A red stamp across the page: a rotated double frame with REVOKED and 취소됨. */
function drawRevokedStamp(page: PDFPage, fonts: PageFonts, model: CertificateModel): void {
  const { width, height } = page.getSize()
  const angle = model.layout.orientation === 'landscape' ? 24 : 38
  const label = 'REVOKED · 취소됨'
  const size = 46
  const textWidth = fonts.bold.widthOfTextAtSize(label, size)
  const box = { width: textWidth + 48, height: size + 34 }
  const theta = (angle * Math.PI) / 180
  // pdf-lib rotates about an element's own origin: start from the point that puts the box's centre on the page's.
  const origin = (w: number, h: number) => ({
    x: width / 2 - ((w / 2) * Math.cos(theta) - (h / 2) * Math.sin(theta)),
    y: height / 2 - ((w / 2) * Math.sin(theta) + (h / 2) * Math.cos(theta)),
  })
  const outer = origin(box.width, box.height)
  page.drawRectangle({ ...outer, width: box.width, height: box.height, rotate: degrees(angle), borderColor: REVOKED_RED, borderWidth: 4, borderOpacity: 0.8 })
  const innerBox = { width: box.width - 14, height: box.height - 14 }
  page.drawRectangle({
    ...origin(innerBox.width, innerBox.height),
    ...innerBox,
    rotate: degrees(angle),
    borderColor: REVOKED_RED,
    borderWidth: 1.2,
    borderOpacity: 0.8,
  })
  const capHeight = size * 0.72
  page.drawText(label, { ...origin(textWidth, capHeight), size, font: fonts.bold, color: REVOKED_RED, opacity: 0.8, rotate: degrees(angle) })
}

/**
 * The QR code as one filled path: a rectangle per run of dark modules in a row, on a white quiet zone.
 * Raw operators rather than a `drawRectangle` per run, which would wrap each in its own graphics state.
 */
function drawQrCode(page: PDFPage, url: string, at: { x: number; y: number; size: number; color: RGB }): void {
  const { size, runs } = qrRuns(url)
  const quiet = 2
  const cell = at.size / (size + quiet * 2)
  const rectangles = runs.map(({ row, start, length }) =>
    rectangle(at.x + (quiet + start) * cell, at.y + at.size - (quiet + row + 1) * cell, length * cell, cell),
  )
  page.drawRectangle({ x: at.x, y: at.y, width: at.size, height: at.size, color: rgb(1, 1, 1) })
  page.pushOperators(pushGraphicsState(), setFillingColor(at.color), ...rectangles, fill(), popGraphicsState())
}

interface TextStyle {
  size: number
  bold?: boolean
  color: RGB
  maxWidth: number
}

type Writer = ReturnType<typeof createWriter>

/** Text placement helpers; each returns the baseline of the last line it drew. */
function createWriter(page: PDFPage, fonts: PageFonts) {
  const fontOf = (style: TextStyle) => (style.bold ? fonts.bold : fonts.regular)
  /** Shrinks the size (down to 60 %) and then cuts with an ellipsis, so that one line fits. */
  const fit = (text: string, style: TextStyle): { line: string; size: number } => {
    const font = fontOf(style)
    let size = style.size
    while (size > style.size * 0.6 && font.widthOfTextAtSize(text, size) > style.maxWidth) size -= 0.5
    return { line: ellipsize(text, font, size, style.maxWidth), size }
  }
  const writer = {
    centered(text: string, style: TextStyle & { y: number; x?: number }): number {
      const { line, size } = fit(singleLine(text), style)
      const width = fontOf(style).widthOfTextAtSize(line, size)
      const x = (style.x ?? page.getWidth() / 2) - width / 2
      page.drawText(line, { x, y: style.y, size, font: fontOf(style), color: style.color })
      return style.y
    },
    left(text: string, style: TextStyle & { x: number; y: number }): number {
      const { line, size } = fit(singleLine(text), style)
      page.drawText(line, { x: style.x, y: style.y, size, font: fontOf(style), color: style.color })
      return style.y
    },
    right(text: string, style: TextStyle & { x: number; y: number }): number {
      const { line, size } = fit(singleLine(text), style)
      page.drawText(line, { x: style.x - fontOf(style).widthOfTextAtSize(line, size), y: style.y, size, font: fontOf(style), color: style.color })
      return style.y
    },
    /** Wrapped and centred lines; at most `maxLines`, the last one cut with an ellipsis when more remain. */
    paragraph(text: string, style: TextStyle & { y: number; x?: number; leading: number; maxLines: number }): number {
      if (style.maxLines <= 0) return style.y + style.leading
      const font = fontOf(style)
      const lines = wrap(text, font, style.size, style.maxWidth)
      const shown = lines.slice(0, style.maxLines)
      if (lines.length > shown.length) shown[shown.length - 1] = ellipsize(`${shown.at(-1)}…`, font, style.size, style.maxWidth, true)
      let y = style.y
      for (const line of shown) {
        writer.centered(line, { ...style, y })
        y -= style.leading
      }
      return y + style.leading
    },
  }
  return writer
}

/**
 * Breaks text into lines that fit: at spaces, at line breaks, and inside a word only when it alone is too
 * wide. Words are measured once each and lines by sums (shaping is the costly part of a page).
 */
export function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const space = font.widthOfTextAtSize(' ', size)
  const lines: string[] = []
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    let line = ''
    let lineWidth = 0
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const wordWidth = font.widthOfTextAtSize(word, size)
      if (line && lineWidth + space + wordWidth <= maxWidth) {
        line += ` ${word}`
        lineWidth += space + wordWidth
        continue
      }
      if (line) lines.push(line)
      if (wordWidth <= maxWidth) {
        line = word
        lineWidth = wordWidth
        continue
      }
      const chars = [...word]
      while (chars.length > 0) {
        const count = fittingPrefix(chars, font, size, maxWidth, '')
        const piece = chars.splice(0, Math.max(1, count)).join('')
        if (chars.length > 0) lines.push(piece)
        else [line, lineWidth] = [piece, font.widthOfTextAtSize(piece, size)]
      }
    }
    if (line) lines.push(line)
  }
  return lines
}

/** The text, cut (by characters) with an ellipsis when it is wider than `maxWidth`. */
function ellipsize(text: string, font: PDFFont, size: number, maxWidth: number, force = false): string {
  if (!force && font.widthOfTextAtSize(text, size) <= maxWidth) return text
  const chars = [...text.replace(/…$/, '')]
  return `${chars
    .slice(0, fittingPrefix(chars, font, size, maxWidth, '…'))
    .join('')
    .trimEnd()}…`
}

/** How many leading characters, followed by `suffix`, fit in `maxWidth` (binary search). */
function fittingPrefix(chars: string[], font: PDFFont, size: number, maxWidth: number, suffix: string): number {
  let [low, high] = [0, chars.length]
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (font.widthOfTextAtSize(chars.slice(0, middle).join('') + suffix, size) <= maxWidth) low = middle
    else high = middle - 1
  }
  return low
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function hex(color: string): RGB {
  const value = /^#([0-9a-f]{6})$/i.exec(color)?.[1] ?? '000000'
  return rgb(parseInt(value.slice(0, 2), 16) / 255, parseInt(value.slice(2, 4), 16) / 255, parseInt(value.slice(4, 6), 16) / 255)
}

/** `a` moved towards `b` by `amount` (0..1). */
function mix(a: RGB, b: RGB, amount: number): RGB {
  return rgb(a.red + (b.red - a.red) * amount, a.green + (b.green - a.green) * amount, a.blue + (b.blue - a.blue) * amount)
}
