import { fromBase64Url } from '../crypto/base64url.ts'
import { checkPng } from './check-png.ts'
import type { ImageType } from './design.ts'
import { sanitizeSvg } from './sanitize-svg.ts'

/** Badge and logo images are at most 256 KiB; a PNG's pixels are bounded by `PNG_LIMITS` (check-png.ts). */
export const IMAGE_MAX_BYTES = 256 * 1024

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
 * Checks an uploaded image and returns the failure code, or `null` when it is acceptable. PNG: decoded
 * with a bounded inflate and held to its header and `PNG_LIMITS` (`checkPng`). SVG: well-formed UTF-8
 * XML with an `<svg>` root and nothing outside the allow-list of `sanitize-svg.ts` that is active or unsupported (a badge is shown on
 * pages, re-hosted by wallets and opened from disk, where a script would run).
 */
export async function imageProblem(mediaType: ImageType, bytes: Uint8Array): Promise<string | null> {
  if (bytes.length === 0) return 'image-empty'
  if (bytes.length > IMAGE_MAX_BYTES) return 'image-too-large'
  return mediaType === 'image/png' ? checkPng(bytes) : svgProblem(bytes)
}

/** The SVG branch is the sanitiser's upload verdict: one reading of the document, by an XML parser. */
function svgProblem(bytes: Uint8Array): string | null {
  const result = sanitizeSvg(bytes, 'upload')
  return result.ok ? null : result.problem
}
