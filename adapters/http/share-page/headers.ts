import { SVG_CONTENT_SECURITY_POLICY } from '../security-headers.ts'

/**
 * The page runs no script and loads nothing: the SVG file policy (inline styles, images only as data:
 * URIs, for the QR code), plus no base, no forms, no framing.
 */
export const SHARE_PAGE_CSP = `${SVG_CONTENT_SECURITY_POLICY}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

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
