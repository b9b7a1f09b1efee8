import { qrRuns } from '../../shared/qr-runs.ts'

/** Modules of white around the code, as the PDF's. */
const QUIET = 2

/**
 * A QR code of `text` as an SVG `data:` URI, for an `<img>` under the CSP `img-src data:`: one path, a
 * run of dark modules a segment, on a white square with a two-module quiet zone. The SVG is ASCII, so
 * `btoa` encodes it as it is.
 */
export function qrDataUri(text: string): string {
  const { size, runs } = qrRuns(text)
  const side = size + QUIET * 2
  const path = runs.map(({ row, start, length }) => `M${start + QUIET} ${row + QUIET}h${length}v1h${-length}z`).join('')
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#ffffff"/><path fill="#000000" d="${path}"/></svg>`
  return `data:image/svg+xml;base64,${btoa(svg)}`
}
