import { encode } from 'uqr'

/**
 * A QR code of `text` as an SVG `data:` URI, for an `<img>` under the CSP `img-src data:`: one path, a
 * run of dark modules a segment, on a white square with a two-module quiet zone. The SVG is ASCII, so
 * `btoa` encodes it as it is. uqr (no dependencies of its own) encodes; error correction M, as on the PDF.
 */
export function qrDataUri(text: string): string {
  const { data, size } = encode(text, { ecc: 'M', border: 2 })
  const runs: string[] = []
  for (let row = 0; row < size; row++) {
    let col = 0
    while (col < size) {
      if (!data[row]![col]) {
        col++
        continue
      }
      const start = col
      while (col < size && data[row]![col]) col++
      runs.push(`M${start} ${row}h${col - start}v1h${start - col}z`)
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#ffffff"/><path fill="#000000" d="${runs.join('')}"/></svg>`
  return `data:image/svg+xml;base64,${btoa(svg)}`
}
