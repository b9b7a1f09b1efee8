/**
 * What the fetch handler reports of each request it answered (docs/logs.md § Request lines): enough to
 * follow traffic and errors, nothing a client could have put a secret or a person's data into. The path
 * is never reported raw: a matched request reports its route template, any other its path shape.
 */
export interface AnsweredRequest {
  requestId: string
  method: string
  /** The route template that answered (`/v2/clubs/{clubDomain}/issuances/{id}`), or `null` when none matched. */
  route: string | null
  /** When no route matched: the path with every segment that is not a word of a known route as `*`. */
  path?: string
  status: number
  /** From the request reaching the handler to its response (its body not yet sent), in ms. */
  durationMs: number
  /**
   * A few request headers, for debugging a client: never Authorization, Cookie or bodies. Their values
   * are as sent: a client may still have put a secret or an address in one, so whoever logs them masks
   * them first (`server/log-wiring.ts` masks, then cuts to 200 characters).
   */
  headers: Partial<Record<(typeof SAFE_HEADERS)[number], string>>
}

/** Request headers that may be reported; every other header, Authorization and Cookie among them, never is. */
export const SAFE_HEADERS = ['user-agent', 'content-type', 'content-length', 'accept'] as const

/** An itty path as a route template: `/v2/clubs/:clubDomain/` → `/v2/clubs/{clubDomain}/`. */
export function routeTemplate(ittyPath: string): string {
  return ittyPath.replace(/:(\w+)\+?/g, '{$1}')
}

/**
 * The template of each route by the path itty notes on a matched request (`request.route`), which it
 * stores without a trailing slash: so that the log names `/v2/clubs/{clubDomain}/` as the OpenAPI
 * document does.
 */
export function routeTemplates(ittyPaths: readonly string[]): Map<string, string> {
  return new Map(ittyPaths.map((path) => [path.replace(/\/+(\/|$)/g, '$1'), routeTemplate(path)]))
}

/**
 * The shape of a path no route matched: its segments that are literal words of some route stay, every
 * other becomes `*`, so that an id, an e-mail address or a token typed into a wrong path never reaches a
 * log line. `/v2/clubs/demo/nowhere` → `/v2/clubs/*\/*` (a club domain is not a route word either).
 */
export function pathShape(pathname: string, routeWords: ReadonlySet<string>): string {
  return pathname
    .split('/')
    .map((segment) => (segment === '' || routeWords.has(segment) ? segment : '*'))
    .join('/')
}

/** The literal segments of these itty paths: the words a path shape may keep. */
export function routeWordsOf(ittyPaths: readonly string[]): Set<string> {
  const words = new Set<string>()
  for (const path of ittyPaths) {
    for (const segment of path.split('/')) if (segment !== '' && !segment.includes(':') && segment !== '*') words.add(segment)
  }
  return words
}

/** The safe headers of a request, those it has, read with `header` (lower-case name → value or `null`). */
export function safeHeaders(header: (name: string) => string | null): AnsweredRequest['headers'] {
  const headers: AnsweredRequest['headers'] = {}
  for (const name of SAFE_HEADERS) {
    const value = header(name)
    // Whole: cut before masking, a secret across the cut would show its first part unrecognised.
    if (value !== null) headers[name] = value
  }
  return headers
}

/**
 * The report of one answered request: its method and safe headers read from the request, the time since
 * `started` (a `performance.now()` reading) to a tenth of a millisecond, and what the fetch handler that answered
 * knows. Every fetch handler builds it here, so that each reports alike.
 */
export function answeredRequest(
  request: { method: string; headers: { get(name: string): string | null } },
  started: number,
  { requestId, route, path, status }: Pick<AnsweredRequest, 'requestId' | 'route' | 'path' | 'status'>,
): AnsweredRequest {
  return {
    requestId,
    method: request.method,
    route,
    ...(path === undefined ? {} : { path }),
    status,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    headers: safeHeaders((name) => request.headers.get(name)),
  }
}
