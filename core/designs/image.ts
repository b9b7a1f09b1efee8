import { fromBase64Url } from '../crypto/base64url.ts'
import type { ImageType } from './design.ts'
import { sanitizeSvg } from './sanitize-svg.ts'

/** Badge and logo images are at most 256 KiB and 2048 pixels a side. */
export const IMAGE_MAX_BYTES = 256 * 1024
export const IMAGE_MAX_PIXELS = 2048

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Decodes standard or url-safe base64; `null` when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '').replace(/\+/g, '-').replace(/\//g, '_')
  try {
    return fromBase64Url(compact)
  } catch {
    return null
  }
}

/**
 * Checks an uploaded image and returns the failure code, or `null` when it is acceptable. PNG: the
 * signature and an IHDR within the size bounds. SVG: well-formed UTF-8 XML with an `<svg>` root and
 * nothing outside the allow-list of `sanitize-svg.ts` that is active or unsupported (a badge is shown on
 * pages, re-hosted by wallets and opened from disk, where a script would run).
 */
export function imageProblem(mediaType: ImageType, bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'image-empty'
  if (bytes.length > IMAGE_MAX_BYTES) return 'image-too-large'
  return mediaType === 'image/png' ? pngProblem(bytes) : svgProblem(bytes)
}

function pngProblem(bytes: Uint8Array): string | null {
  if (bytes.length < 33 || PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return 'image-not-png'
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const chunkType = String.fromCharCode(...bytes.subarray(12, 16))
  if (chunkType !== 'IHDR') return 'image-not-png'
  const width = view.getUint32(16)
  const height = view.getUint32(20)
  if (width === 0 || height === 0 || width > IMAGE_MAX_PIXELS || height > IMAGE_MAX_PIXELS) return 'image-dimensions'
  return null
}

/** The SVG branch is the sanitiser's upload verdict: one reading of the document, by an XML parser. */
function svgProblem(bytes: Uint8Array): string | null {
  const result = sanitizeSvg(bytes, 'upload')
  return result.ok ? null : result.problem
}
