import { fromBase64Url } from '../crypto/base64url.ts'
import { checkPng } from './check-png.ts'
import type { ImageType } from './design.ts'

/** Badge and logo images are at most 256 KiB and 2048 pixels a side; PNGs also within `PNG_LIMITS` (check-png.ts). */
export const IMAGE_MAX_BYTES = 256 * 1024
export const IMAGE_MAX_PIXELS = 2048

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
 * with a bounded inflate and held to its header and `PNG_LIMITS` (`checkPng`). SVG: well-formed-looking
 * UTF-8 with an `<svg` root and nothing active: no scripts, event handlers, foreign objects, external references or
 * `javascript:` URLs (a badge is shown on pages and opened by validators).
 */
export async function imageProblem(mediaType: ImageType, bytes: Uint8Array): Promise<string | null> {
  if (bytes.length === 0) return 'image-empty'
  if (bytes.length > IMAGE_MAX_BYTES) return 'image-too-large'
  return mediaType === 'image/png' ? checkPng(bytes) : svgProblem(bytes)
}

const SVG_FORBIDDEN = [
  /<script\b/i,
  /<foreignObject\b/i,
  /<iframe\b/i,
  /<embed\b/i,
  /<object\b/i,
  /\son[a-z]+\s*=/i,
  /javascript:/i,
  /<!ENTITY/i,
  /\b(xlink:)?href\s*=\s*["'](?!#|data:image\/(png|jpeg|gif);base64,)/i,
  /url\(\s*["']?(?!#)/i,
  /@import/i,
]

function svgProblem(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return 'image-not-svg'
  }
  if (!/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text) || !/<\/svg>\s*$/i.test(text)) return 'image-not-svg'
  return SVG_FORBIDDEN.some((pattern) => pattern.test(text)) ? 'image-svg-active-content' : null
}
