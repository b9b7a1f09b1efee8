import { validationFailed } from '../errors.ts'
import { defaultBadgePng, defaultBadgeSvg, type DefaultBadgeInput } from '../designs/default-badge.ts'
import { storedBadgeSvg } from '../designs/sanitize-svg.ts'
import type { StoredImage } from '../designs/design.ts'
import type { IssuerContext } from '../context.ts'

/**
 * The badge picture before anything is baked into it: the badge design's image, or the built-in badge.
 * The issuance file (`prepare-file.ts`) bakes a credential into it; the console's previews show it as is,
 * so both show the same picture for the same template and design.
 */

/** The badge image a credential or template names (a content-addressed image URL, `.../images/{hash}`), or `null`. */
export async function badgeImageOf(ctx: IssuerContext, url: string | null | undefined): Promise<StoredImage | null> {
  const hash = url ? /\/images\/([0-9a-f]{64})$/.exec(url)?.[1] : undefined
  return hash ? ctx.storage.images.findByHash(hash) : null
}

/** clubcred does not rasterize SVG: a PNG of an SVG design is 422 `no-png-badge` at `format`. */
export function requirePngBadge(badge: StoredImage | null): void {
  if (badge && badge.mediaType !== 'image/png') {
    throw validationFailed(
      [{ message: 'no-png-badge', path: 'format' }],
      'The badge design is an SVG image and clubcred does not rasterize SVG; ask for format=svg.',
    )
  }
}

/** The badge as PNG: the design's PNG as stored, or the built-in badge (callers MUST NOT modify the bytes). */
export async function badgePng(badge: StoredImage | null): Promise<Uint8Array> {
  return badge ? badge.bytes : defaultBadgePng()
}

/** The badge as SVG text: the design's SVG sanitised again (rows stored before the allow-list passed a deny-list), a PNG design inline, or the built-in badge. */
export function badgeSvg(badge: StoredImage | null, names: DefaultBadgeInput): string {
  if (!badge) return defaultBadgeSvg(names)
  if (badge.mediaType === 'image/svg+xml') return storedBadgeSvg(badge.bytes) ?? defaultBadgeSvg(names)
  return svgAroundPng(badge.bytes)
}

/** A PNG badge as SVG: the PNG inline as a `data:` image (allowed by the image rules), its own size. */
function svgAroundPng(png: Uint8Array): string {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const [width, height] = [view.getUint32(16), view.getUint32(20)]
  let binary = ''
  for (let i = 0; i < png.length; i += 0x8000) binary += String.fromCharCode(...png.subarray(i, i + 0x8000))
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<image width="${width}" height="${height}" href="data:image/png;base64,${btoa(binary)}"/></svg>`
  )
}
