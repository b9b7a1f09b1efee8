import type { IncomingMessage } from 'node:http'

/**
 * RFC 9110 §7.2 `Host = uri-host [ ":" port ]`: a bracketed IP literal or a reg-name (unreserved,
 * percent-encoded and sub-delims characters), then an optional port of digits. Anything else (`a b`,
 * `x@y`, `localhost:abc`, `[::1`) is refused before URL parsing could read it some other way (`x@y`
 * would parse as user `x` at host `y`).
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::\d{1,5})?$/

/**
 * The absolute URL of a request, from its `Host` header (share pages route on it), or `null` when
 * the Host (or an absolute-form target) does not form one. A request without Host (HTTP/1.0) is for
 * `localhost`. `req.originalUrl` (Express) is preferred to `req.url` so that a mounted handler sees its
 * full path; an origin-form target is appended to the origin as it is, so `//other/x` stays a path.
 */
export function requestUrl(req: IncomingMessage): URL | null {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
  const host = req.headers.host ?? 'localhost'
  if (!HOST.test(host)) return null
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/'
  try {
    const origin = new URL(`${protocol}://${host}`).origin
    return target.startsWith('/') ? new URL(`${origin}${target}`) : new URL(target, origin)
  } catch {
    return null
  }
}
