import { SVG_CONTENT_SECURITY_POLICY } from '../security-headers.ts'

/**
 * The page loads nothing but its own script file: the SVG file policy (inline styles, images only as
 * data: URIs, for the QR code) with scripts from the share host itself only (`/share.js`, the share
 * button; never inline code), plus no base, no forms, no framing. Nothing is fetched from the page.
 */
export const SHARE_PAGE_CSP = `${SVG_CONTENT_SECURITY_POLICY}; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

/** Headers of every answer on the share host (`nosniff` is on every surface: security-headers.ts). */
const SECURITY_HEADERS = {
  'content-security-policy': SHARE_PAGE_CSP,
  'referrer-policy': 'no-referrer',
} as const

/**
 * An HTML answer. `no-store`: the page shows the verdict as it is now, and a revoked credential must
 * never be served as valid from a cache.
 */
export function htmlResponse(page: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(page, {
    status,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })
}

/**
 * A download of the credential. Its bytes never change (the JWT is signed once), so it may be cached;
 * its verdict is not in it.
 */
export function downloadResponse(body: string, contentType: string, filename: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      ...SECURITY_HEADERS,
      'content-type': contentType,
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'public, max-age=86400',
    },
  })
}

/** The share button's script (`/share.js`): it changes with a release, so it is kept an hour. */
export function scriptResponse(js: string): Response {
  return new Response(js, {
    status: 200,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  })
}

/**
 * A share card (docs/share-card.md), or 304 when `If-None-Match` already names it. It shows no verdict
 * and its strong ETag names exactly what it shows, so sites and caches may keep it a day and then
 * revalidate; a revoked credential's card is the same picture.
 */
export function cardResponse(png: Uint8Array | null, etag: string): Response {
  const headers = { ...SECURITY_HEADERS, etag, 'cache-control': 'public, max-age=86400' }
  if (!png) return new Response(null, { status: 304, headers })
  return new Response(png as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { ...headers, 'content-type': 'image/png', 'content-length': String(png.length) },
  })
}
