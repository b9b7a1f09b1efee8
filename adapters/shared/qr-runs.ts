import { encode } from 'uqr'

/** A horizontal run of dark modules: its row, first column and length, in modules. */
export interface QrRun {
  row: number
  start: number
  length: number
}

/**
 * The QR code of `text` (uqr, error correction M, no quiet zone) as its rows' runs of dark modules, so
 * that the share page's SVG and the certificate's PDF each draw one shape a run instead of one a module.
 */
export function qrRuns(text: string): { size: number; runs: QrRun[] } {
  const { data, size } = encode(text, { ecc: 'M', border: 0 })
  const runs: QrRun[] = []
  data.forEach((modules, row) => {
    let col = 0
    while (col < size) {
      if (!modules[col]) {
        col++
        continue
      }
      const start = col
      while (col < size && modules[col]) col++
      runs.push({ row, start, length: col - start })
    }
  })
  return { size, runs }
}
