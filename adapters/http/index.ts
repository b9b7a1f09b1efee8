/**
 * @module clubcred/http: the fetch-style HTTP face. `(Request) => Promise<Response>`, so it runs on any
 * runtime with fetch types and mounts in any framework.
 */
import { OAuthError, ProblemError } from '../../core/errors.ts'
import { oauthErrorResponse } from './oauth-error.ts'
import { asProblem, problemResponse } from './problem.ts'
import { requestIdOf, settleRequestId, withRequestIdHeader } from './request-id.ts'
import { answeredRequest, pathShape, routeTemplate, routeTemplates, routeWordsOf, type AnsweredRequest } from './answered.ts'
import { withSecurityHeaders } from './security-headers.ts'
import { publicPreflight } from './cors.ts'
import { Router, mountOperations } from './router.ts'
import { OPERATIONS } from './operation-table.ts'
import { surfaceBases } from './surface-bases.ts'
import { createOpenApiDocument } from './openapi/document.ts'
import { PUBLIC_PATHS, WELL_KNOWN } from '../../core/public-paths.ts'
import { createShareHostMatcher, createShareSurface } from './routes/share.ts'
import type { CoreIssuer } from '../../core/core-issuer.ts'

export type FetchHandler = ((request: Request) => Promise<Response>) & {
  /** The routes served (method and itty path), for tooling and the OpenAPI consistency test. */
  routes: { method: string; path: string }[]
  /** The base of problem `type` URLs, so that a listener around the handler answers its own problems alike. */
  problemBaseUrl: string
}

export interface FetchHandlerOptions {
  /** Called with every error that becomes a 500; the response itself never shows it. */
  onError?: (error: unknown, request: Request) => void
  /** Called once per answered request, after its response is made (docs/logs.md § Request lines). */
  onResponse?: (answered: AnsweredRequest) => void
  /**
   * The staff console under `{public_url}/admin` (`createAdminSurface` of adapters/admin/). Passed in
   * rather than imported, so that this face does not depend on the console built on it: `createIssuer`
   * and the root `createFetchHandler` pass it; without it, the console's paths are the API's 404s.
   */
  console?: (issuer: CoreIssuer, options: { onError: (error: unknown, request: Request) => void }) => MountedSurface
}

/** A surface that answers every request under a path prefix of its own (the staff console). */
export interface MountedSurface {
  /** Whether a request's path is the surface's. */
  handles(url: string): boolean
  fetch(request: Request): Promise<Response>
}

export type { AnsweredRequest } from './answered.ts'

/**
 * The HTTP face of an issuer: every surface of docs/api.md at the paths of `issuer.config.urls`.
 *
 * @example
 * const handle = createFetchHandler(issuer)
 * const response = await handle(new Request('http://localhost:8787/v2/clubs/demo/'))
 */
export function createFetchHandler(issuer: CoreIssuer, { onError = logError, onResponse, console: consoleOf }: FetchHandlerOptions = {}): FetchHandler {
  const { urls, problemBaseUrl } = issuer.config
  const bases = surfaceBases(urls)
  // Generated on first request: a process that never serves it (the CLI, most tests) never pays for it.
  let openApi: string | undefined
  const openApiJson = () => (openApi ??= JSON.stringify(createOpenApiDocument(issuer.config, OPERATIONS)))

  const router = Router({
    catch: (error: unknown, request: Request) => {
      const problem = asProblem(error)
      if (problem) return problemResponse(problem, problemBaseUrl, requestIdOf(request))
      if (error instanceof OAuthError) return oauthErrorResponse(error)
      onError(error, request)
      return internalError(requestIdOf(request))
    },
    finally: [
      (response: Response | undefined, request: Request) =>
        response ?? problemResponse(new ProblemError('route-not-found', { detail: 'There is no such route.' }), problemBaseUrl, requestIdOf(request)),
    ],
  })
  const routes = mountOperations(router, OPERATIONS, { bases, served: { issuer, onError, openApiJson }, problemBaseUrl })
  const internalError = (requestId: string) =>
    problemResponse(new ProblemError('internal-error', { detail: 'Something went wrong on our side.' }), problemBaseUrl, requestId)

  // Share pages are routed by host, `{club}.{share_url_host}` (docs/decisions/0001-addresses.md); every other host gets the API.
  const shareClubOf = createShareHostMatcher(urls)
  const share = createShareSurface(issuer, { onError })
  // A storage without the console's stores leaves the console off (core/admins/console-storage.ts): no /admin/ then.
  const admin = issuer.consoleEnabled ? (consoleOf?.(issuer, { onError }) ?? null) : null
  const routeWords = routeWordsOf([...routes.map((route) => route.path), ...share.paths])
  const templates = routeTemplates(routes.map((route) => route.path))
  // The public surface, and the well-known metadata of its OID4VCI credential issuers, answer preflights.
  const publicPrefixes = [`${bases.public}${PUBLIC_PATHS.openBadges}/`, ...Object.values(WELL_KNOWN).map((name) => `${name}${bases.public}/`)]
  const isPublic = (url: string) => publicPrefixes.some((prefix) => new URL(url).pathname.startsWith(prefix))
  const route = (request: Request): Promise<Response> => {
    const club = shareClubOf(request.url)
    if (club !== null) return share.fetch(request, club)
    if (admin?.handles(request.url)) return admin.fetch(request)
    if (request.method === 'OPTIONS' && isPublic(request.url)) return Promise.resolve(publicPreflight())
    return router.fetch(request)
  }

  /** Answers `request`; HEAD is GET without the body (RFC 9110 §9.3.2). Returns the request routed too: itty notes its route there. */
  const answer = async (request: Request, requestId: string): Promise<{ response: Response; routed: Request }> => {
    if (request.method !== 'HEAD') return { response: await route(request), routed: request }
    const routed = new Request(request, { method: 'GET' })
    settleRequestId(routed, requestId)
    const response: Response = await route(routed)
    return { response: new Response(null, { status: response.status, headers: response.headers }), routed }
  }
  const handler = async (request: Request): Promise<Response> => {
    const started = performance.now()
    const requestId = settleRequestId(request)
    let answered: { response: Response; routed: Request | null }
    try {
      answered = await answer(request, requestId)
    } catch (error) {
      // Every surface answers its own errors; this is the net under them, so that even then the answer has its id.
      onError(error, request)
      answered = { response: internalError(requestId), routed: null }
    }
    const response = withRequestIdHeader(withSecurityHeaders(answered.response), requestId)
    if (onResponse) {
      const matched = (answered.routed as { route?: string } | null)?.route
      const shareRoute = matched !== undefined && shareClubOf(request.url) !== null
      onResponse(
        answeredRequest(request, started, {
          requestId,
          route: matched === undefined ? null : shareRoute ? `share:${routeTemplate(matched)}` : (templates.get(matched) ?? routeTemplate(matched)),
          ...(matched === undefined ? { path: pathShape(new URL(request.url).pathname, routeWords) } : {}),
          status: response.status,
        }),
      )
    }
    return response
  }
  return Object.assign(handler, { routes, problemBaseUrl })
}

/** The default for an embedder without `onError`: the request id, not the path (it may hold an id or an address). */
function logError(error: unknown, request: Request): void {
  console.error(`clubcred: ${request.method} request ${requestIdOf(request)} failed:`, error)
}
export { createWorkerFetchHandler } from './worker-fetch-handler.ts'
export { withOperationalEndpoints, type OperationalOptions } from './operator-endpoints.ts'
export { createMetricsFetchHandler, type MetricsExposition } from './metrics-endpoint.ts'
