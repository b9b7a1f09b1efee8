/**
 * @module clubcred/http: the fetch-style HTTP face. `(Request) => Promise<Response>`, so it runs on any
 * runtime with fetch types and mounts in any framework.
 */
import { OAuthError, ProblemError } from '../../core/errors.ts'
import { oauthErrorResponse } from './oauth-error.ts'
import { asProblem, problemResponse } from './problem.ts'
import { withSecurityHeaders } from './security-headers.ts'
import { publicPreflight } from './cors.ts'
import { Router, mountOperations } from './router.ts'
import { OPERATIONS } from './operations.ts'
import { surfaceBases } from './operation.ts'
import { createOpenApiDocument } from './openapi/document.ts'
import { PUBLIC_PATHS, WELL_KNOWN } from '../../core/public-paths.ts'
import { createShareHostMatcher, createShareSurface } from './routes/share.ts'
import type { CoreIssuer } from '../../core/issuer.ts'
import type { RequestObservation } from './observation.ts'

export type FetchHandler = ((request: Request) => Promise<Response>) & {
  /** The routes served (method and itty path), for tooling and the OpenAPI consistency test. */
  routes: { method: string; path: string }[]
  /** The base of problem `type` URLs, so that a listener around the handler answers its own problems alike. */
  problemBaseUrl: string
}

export interface FetchHandlerOptions {
  /** Called with every error that becomes a 500; the response itself never shows it. */
  onError?: (error: unknown, request: Request) => void
  /** Called once per answered request with its route template, status and duration (metrics); it must not throw. */
  onResponse?: (observation: RequestObservation) => void
}

/**
 * The HTTP face of an issuer: every surface of interface-spec at the paths of `issuer.config.urls`.
 *
 * @example
 * const handle = createFetchHandler(issuer)
 * const response = await handle(new Request('http://localhost:8787/v2/clubs/demo/'))
 */
export function createFetchHandler(issuer: CoreIssuer, { onError = logError, onResponse }: FetchHandlerOptions = {}): FetchHandler {
  const { urls, problemBaseUrl } = issuer.config
  const bases = surfaceBases(urls)
  // Generated on first request: a process that never serves it (the CLI, most tests) never pays for it.
  let openApi: string | undefined
  const openApiJson = () => (openApi ??= JSON.stringify(createOpenApiDocument(issuer.config, OPERATIONS)))

  const router = Router({
    catch: (error: unknown, request: Request) => {
      const problem = asProblem(error)
      if (problem) return problemResponse(problem, problemBaseUrl)
      if (error instanceof OAuthError) return oauthErrorResponse(error)
      onError(error, request)
      return problemResponse(new ProblemError('internal-error', { detail: 'Something went wrong on our side.' }), problemBaseUrl)
    },
    finally: [
      (response: Response | undefined) =>
        response ?? problemResponse(new ProblemError('route-not-found', { detail: 'There is no such route.' }), problemBaseUrl),
    ],
  })
  const routes = mountOperations(router, OPERATIONS, { bases, served: { issuer, onError, openApiJson }, problemBaseUrl })

  // Share pages are routed by host, `{club}.{share_url_host}` (docs/decisions.md, Addresses); every other host gets the API.
  const shareClubOf = createShareHostMatcher(urls)
  const share = createShareSurface(issuer, { onError })
  // The public surface, and the well-known metadata of its OID4VCI credential issuers, answer preflights.
  const publicPrefixes = [`${bases.public}${PUBLIC_PATHS.openBadges}/`, ...Object.values(WELL_KNOWN).map((name) => `${name}${bases.public}/`)]
  const isPublic = (url: string) => publicPrefixes.some((prefix) => new URL(url).pathname.startsWith(prefix))
  /** The response and the template of the route that made it (see RequestObservation). */
  const route = async (request: Request): Promise<[Response, string]> => {
    const club = shareClubOf(request.url)
    if (club !== null) return [await share.fetch(request, club), 'share-page']
    if (request.method === 'OPTIONS' && isPublic(request.url)) return [publicPreflight(), 'preflight']
    const response: Response = await router.fetch(request)
    // itty-router sets `route`, the pattern it matched, on the request it routes; absent, nothing matched.
    return [response, (request as Request & { route?: string }).route ?? 'unmatched']
  }

  const answer = async (request: Request): Promise<[Response, string]> => {
    if (request.method !== 'HEAD') return route(request)
    // HEAD is GET without the body (RFC 9110 §9.3.2).
    const [response, template] = await route(new Request(request, { method: 'GET' }))
    return [new Response(null, { status: response.status, headers: response.headers }), template]
  }
  const handler = async (request: Request): Promise<Response> => {
    const started = performance.now()
    const [response, template] = await answer(request)
    onResponse?.({ method: request.method, route: template, status: response.status, durationMs: performance.now() - started })
    return withSecurityHeaders(response)
  }
  return Object.assign(handler, { routes, problemBaseUrl })
}

function logError(error: unknown, request: Request): void {
  console.error(`clubcred: ${request.method} ${new URL(request.url).pathname} failed:`, error)
}
export { createWorkerFetchHandler } from './worker-face.ts'
export { withOperationalEndpoints, type OperationalOptions } from './operational.ts'
export { createMetricsFetchHandler, type MetricsExposition } from './metrics-endpoint.ts'
export type { RequestObservation } from './observation.ts'
