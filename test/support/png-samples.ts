import { deflateSync } from 'node:zlib'
import { writePng } from '../../core/files/png-chunks.ts'

/**
 * Hand-made PNGs for the upload checks: a header that may lie about the data that follows, so that
 * decompression bombs and mismatches can be built on purpose.
 */
export interface PngSample {
  width: number
  height: number
  bitDepth?: number
  colourType?: number
  interlace?: number
  /** The inflated image data (filter bytes and samples); default: exactly what the header implies, all zero. */
  raw?: Uint8Array
  /** A PLTE chunk's data (palette images). */
  palette?: Uint8Array
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }

/** The inflated size a non-interlaced image of this header has. */
export function rawSize({ width, height, bitDepth = 8, colourType = 6 }: PngSample): number {
  return height * (1 + Math.ceil((width * CHANNELS[colourType]! * bitDepth) / 8))
}

/** A PNG of the sample: IHDR as given, one IDAT of `raw` deflated at level 9, IEND; CRCs right. */
export function samplePng(sample: PngSample): Uint8Array {
  const { width, height, bitDepth = 8, colourType = 6, interlace = 0 } = sample
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([bitDepth, colourType, 0, 0, interlace], 8)
  const raw = sample.raw ?? new Uint8Array(rawSize(sample))
  return writePng([
    { type: 'IHDR', data: header },
    ...(sample.palette ? [{ type: 'PLTE', data: sample.palette }] : []),
    { type: 'IDAT', data: new Uint8Array(deflateSync(raw, { level: 9 })) },
    { type: 'IEND', data: new Uint8Array(0) },
  ])
}

/** Declares 1×1 RGBA (5 bytes of image data) over zlib data that inflates to `inflatedBytes` (default 250 MB). */
export function decompressionBomb(inflatedBytes = 250_000_000): Uint8Array {
  return samplePng({ width: 1, height: 1, raw: new Uint8Array(inflatedBytes) })
}
