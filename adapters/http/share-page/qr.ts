import QRCode from 'qrcode'

/**
 * A QR code of `text` as an SVG `data:` URI, for an `<img>` under the CSP `img-src data:`. SVG from
 * qrcode is ASCII, so `btoa` encodes it as it is.
 */
export async function qrDataUri(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } })
  return `data:image/svg+xml;base64,${btoa(svg)}`
}
