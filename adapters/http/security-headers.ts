/**
 * Headers every answer carries, on every surface (API, public, share pages, files, OAuth, legacy,
 * errors, 404/405): set once where responses leave the fetch handler, and on the node listener's own
 * answers. `nosniff`: a browser must never guess a type other than the one declared (an uploaded SVG
 * or a JSON body rendered as HTML).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff' }

/** `response` with the security headers; a response whose headers are immutable is copied. */
export function withSecurityHeaders(response: Response): Response {
  try {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value)
    return response
  } catch {
    const copy = new Response(response.body, response)
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) copy.headers.set(name, value)
    return copy
  }
}

/**
 * The Content-Security-Policy of an SVG served as a file (a badge image, a baked badge): opened directly
 * in a browser it must run nothing, whatever an uploaded design holds; only its own inline styles and
 * `data:` images show.
 */
export const SVG_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
