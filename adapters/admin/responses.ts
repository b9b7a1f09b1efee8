import { SVG_CONTENT_SECURITY_POLICY } from '../http/security-headers.ts'

/**
 * The console's Content-Security-Policy: nothing inline, scripts and styles from the console's own
 * origin only (script files such as /admin/passkey.js, never inline code), `fetch` to it only (the
 * passkey script's JSON calls, a progress page polling its JSON), forms post back to it, no framing, no `<base>`.
 */
export const ADMIN_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

/**
 * Headers of every console answer. `no-store`: pages show one club's data to one person. `same-origin`:
 * the setup page's address holds its token, and no link may carry it to another origin; not
 * `no-referrer`, under which browsers send `Origin: null` with a form's POST, which the Origin check
 * then refuses (every form of a real browser would be 403).
 */
const HEADERS = {
  'content-security-policy': ADMIN_CSP,
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
} as const

/** The console's headers against framing, for answers that are not its pages. */
const FRAME_ANCESTORS = "frame-ancestors 'none'"

/**
 * A file of the console (a template's or design's preview, an issuance's file, shown inline or
 * downloaded), with the headers every console answer has against framing and caching (docs/admin-console.md
 * § Sign-in): `X-Frame-Options: DENY` and `frame-ancestors 'none'`, `no-store`, `nosniff`. Its policy is
 * not the pages' (a browser's PDF viewer is no page of ours): an SVG gets the API's SVG policy, so that
 * nothing in it runs, and every file `frame-ancestors 'none'`. No referrer leaves a file.
 */
export function fileResponse(bytes: Uint8Array, { mediaType, disposition, svg }: { mediaType: string; disposition: string; svg: boolean }): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'content-type': svg ? `${mediaType}; charset=utf-8` : mediaType,
      'content-length': String(bytes.length),
      'content-disposition': disposition,
      'content-security-policy': svg ? `${SVG_CONTENT_SECURITY_POLICY}; ${FRAME_ANCESTORS}` : FRAME_ANCESTORS,
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  })
}

export function htmlResponse(page: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(page, { status, headers: { ...HEADERS, 'content-type': 'text/html; charset=utf-8', ...headers } })
}

/** 303 See Other: after a form, the browser GETs the next page (no resubmission on reload). */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { ...HEADERS, location, ...headers } })
}

export function stylesheetResponse(css: string): Response {
  return new Response(css, { status: 200, headers: { ...HEADERS, 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' } })
}

export function scriptResponse(js: string): Response {
  return new Response(js, { status: 200, headers: { ...HEADERS, 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' } })
}

/** A JSON answer of the console's passkey endpoints, with every console header. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...HEADERS, 'content-type': 'application/json', ...headers } })
}
