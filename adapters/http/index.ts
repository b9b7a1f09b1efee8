/**
 * @module clubcred/http: the fetch-style HTTP face. `(Request) => Promise<Response>`, so it runs on any
 * runtime with fetch types and mounts in any framework.
 */
import { OAuthError, ProblemError } from '../../core/errors.ts'
import { oauthErrorResponse } from './oauth-error.ts'
import { problemResponse } from './problem.ts'
import { withSecurityHeaders } from './security-headers.ts'
import { Router, createRouteTable } from './router.ts'
import { clubApiRoutes } from './routes/club-api.ts'
import { oauthRoutes } from './routes/oauth.ts'
import { publicRoutes } from './routes/public.ts'
import { legacyRoutes } from './routes/legacy.ts'
import { v1Routes } from './routes/v1.ts'
import { createOpenApiDocument } from './openapi/document.ts'
import { createShareHostMatcher, createShareSurface } from './routes/share.ts'
import type { CoreIssuer } from '../../core/issuer.ts'

export type FetchHandler = ((request: Request) => Promise<Response>) & {
  /** The routes served (method and itty path), for tooling and the OpenAPI consistency test. */
  routes: { method: string; path: string }[]
  /** The base of problem `type` URLs, so that a listener around the handler answers its own problems alike. */
  problemBaseUrl: string
}

export interface FetchHandlerOptions {
  /** Called with every error that becomes a 500; the response itself never shows it. */
  onError?: (error: unknown, request: Request) => void
}

/**
 * The HTTP face of an issuer: every surface of interface-spec at the paths of `issuer.config.urls`.
 *
 * @example
 * const handle = createFetchHandler(issuer)
 * const response = await handle(new Request('http://localhost:8787/v2/clubs/demo/'))
 */
export function createFetchHandler(issuer: CoreIssuer, { onError = logError }: FetchHandlerOptions = {}): FetchHandler {
  const { urls, problemBaseUrl } = issuer.config
  const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '')

  const routes = createRouteTable()
  oauthRoutes(issuer, routes, pathOf(urls.auth))
  clubApiRoutes(issuer, routes, pathOf(urls.base))
  publicRoutes(issuer, routes, pathOf(urls.public))
  v1Routes(issuer, routes, pathOf(urls.base))
  legacyRoutes(issuer, routes, pathOf(urls.legacyBase), onError)
  // Generated on first request: a process that never serves it (the CLI, most tests) never pays for it.
  let openApi: string | undefined
  routes.add('GET', `${pathOf(urls.base)}/openapi.json`, () => {
    openApi ??= JSON.stringify(createOpenApiDocument(issuer.config))
    return new Response(openApi, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } })
  })

  const router = Router({
    catch: (error: unknown, request: Request) => {
      if (error instanceof ProblemError) return problemResponse(error, problemBaseUrl)
      if (error instanceof OAuthError) return oauthErrorResponse(error)
      onError(error, request)
      return problemResponse(new ProblemError('internal-error', { detail: 'Something went wrong on our side.' }), problemBaseUrl)
    },
    finally: [
      (response: Response | undefined) =>
        response ??
        problemResponse(new ProblemError('route-not-found', { detail: 'There is no such route.' }), problemBaseUrl),
    ],
  })
  routes.mount(router)

  // Share pages are routed by host, `{club}.{share_url_host}` (DESIGN §3); every other host gets the API.
  const shareClubOf = createShareHostMatcher(urls)
  const share = createShareSurface(issuer, { onError })
  const publicPrefix = `${pathOf(urls.public)}/open-badges/v3/`
  const route = (request: Request): Promise<Response> => {
    const club = shareClubOf(request.url)
    if (club !== null) return share.fetch(request, club)
    if (request.method === 'OPTIONS' && new URL(request.url).pathname.startsWith(publicPrefix)) return Promise.resolve(publicPreflight())
    return router.fetch(request)
  }

  const answer = async (request: Request): Promise<Response> => {
    if (request.method !== 'HEAD') return route(request)
    // HEAD is GET without the body (RFC 9110 §9.3.2).
    const response: Response = await route(new Request(request, { method: 'GET' }))
    return new Response(null, { status: response.status, headers: response.headers })
  }
  const handler = async (request: Request): Promise<Response> => withSecurityHeaders(await answer(request))
  return Object.assign(handler, { routes: routes.list(), problemBaseUrl })
}

/**
 * CORS preflight of the public surface: a verifier's page on another origin may send If-None-Match
 * (not a CORS-safelisted header), so it asks first. Reads only: GET and HEAD.
 */
function publicPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': 'If-None-Match, Accept',
      'access-control-max-age': '86400',
    },
  })
}

function logError(error: unknown, request: Request): void {
  console.error(`clubcred: ${request.method} ${new URL(request.url).pathname} failed:`, error)
}
