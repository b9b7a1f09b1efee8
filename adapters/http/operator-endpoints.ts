import { healthResponse, readinessResponse } from './probes.ts'
import { hashSecret } from '../../core/crypto/secret-hash.ts'
import { guardedMetricsResponse, type MetricsExposition } from './metrics-endpoint.ts'
import type { Readiness } from '../../core/health/readiness.ts'
import { settleRequestId, withRequestIdHeader } from './request-id.ts'
import { answeredRequest, type AnsweredRequest } from './answered.ts'

export interface OperationalOptions {
  /** This process's readiness: `issuer.health.readiness` with the process's options bound. */
  readiness: () => Promise<Readiness>
  /** Named in the `/healthz` answer when given (`all`, `api`, `worker`). */
  role?: string
  /** `/metrics` here, behind this bearer token; absent, `/metrics` is not served by this handler (the next one answers 404). */
  metrics?: { token: string; scrape: MetricsExposition }
  /** Reports the probes' own answers like the fetch handler's (docs/logs.md § Request lines). */
  onResponse?: (answered: AnsweredRequest) => void
  /** The base of problem `type` URLs (the 401 of `/metrics`). */
  problemBaseUrl: string
}

/**
 * `next` with the operator's endpoints in front (docs/operations-metrics.md): `GET /healthz` and
 * `GET /readyz`, unauthenticated, and `GET /metrics` when a token is configured. Their paths are at the
 * root of the host, outside every surface's base, and any other method or path goes to `next`.
 *
 * @example
 * const handle = withOperationalEndpoints(issuer.fetch, {
 *   readiness: () => issuer.health.readiness({ signs: true, maxSigningAgeMs: 300_000 }),
 *   problemBaseUrl: issuer.fetch.problemBaseUrl,
 * })
 */
export function withOperationalEndpoints(next: (request: Request) => Promise<Response>, options: OperationalOptions): (request: Request) => Promise<Response> {
  const { readiness, role, metrics, onResponse, problemBaseUrl } = options
  const endpoints: Record<string, (request: Request) => Promise<Response>> = {
    '/healthz': async (request) => healthResponse(request, role),
    '/readyz': async (request) => readinessResponse(request, await readiness()),
  }
  if (metrics) {
    // Hashed once, not per scrape.
    const tokenHash = hashSecret(metrics.token)
    endpoints['/metrics'] = async (request) => guardedMetricsResponse(request, metrics.scrape, await tokenHash, problemBaseUrl)
  }
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next(request)
    const path = new URL(request.url).pathname
    const endpoint = Object.hasOwn(endpoints, path) ? endpoints[path] : undefined
    if (!endpoint) return next(request)
    const started = performance.now()
    const requestId = settleRequestId(request)
    const response = withRequestIdHeader(await endpoint(request), requestId)
    onResponse?.(
      answeredRequest(request, started, {
        requestId,
        route: path,
        status: response.status,
      }),
    )
    return response
  }
}
