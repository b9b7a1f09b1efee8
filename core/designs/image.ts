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

/** An uploaded image as it will be stored, or why it is refused (`detail`: what the SVG sanitiser found). */
export type CheckedImage = { ok: true; bytes: Uint8Array } | { ok: false; problem: string; detail?: string }

/**
 * Checks an uploaded image, reading it once. PNG: decoded with a bounded inflate and held to its header
 * and `PNG_LIMITS` (`checkPng`); stored as sent. SVG: well-formed UTF-8 XML with an `<svg>` root and
 * nothing outside the allow-list of `sanitize-svg.ts` that is active or unsupported (a badge is shown on
 * pages, re-hosted by wallets and opened from disk, where a script would run); stored as the sanitiser's
 * re-serialisation, never the uploaded bytes.
 */
export async function checkImage(mediaType: ImageType, bytes: Uint8Array): Promise<CheckedImage> {
  if (bytes.length === 0) return { ok: false, problem: 'image-empty' }
  if (bytes.length > IMAGE_MAX_BYTES) return { ok: false, problem: 'image-too-large' }
  if (mediaType === 'image/png') {
    const problem = await checkPng(bytes)
    return problem ? { ok: false, problem } : { ok: true, bytes }
  }
  const result = sanitizeSvg(bytes, 'upload')
  return result.ok ? { ok: true, bytes: new TextEncoder().encode(result.svg) } : result
}

/** The failure code of `checkImage`, or `null` when the image is acceptable. */
export async function imageProblem(mediaType: ImageType, bytes: Uint8Array): Promise<string | null> {
  const checked = await checkImage(mediaType, bytes)
  return checked.ok ? null : checked.problem
}
