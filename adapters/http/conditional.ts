/**
 * Whether a request's `If-None-Match` already names this version. The comparison is weak (RFC 9110
 * §13.1.2): `W/"x"` matches `"x"` and the other way round; `*` matches any current representation.
 */
export function ifNoneMatch(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match')
  if (!header) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
}
