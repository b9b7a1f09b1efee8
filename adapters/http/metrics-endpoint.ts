import { ProblemError } from '../../core/errors.ts'
import { verifySecret } from '../../core/crypto/secret-hash.ts'
import { problemResponse } from './problem.ts'
import { withSecurityHeaders } from './security-headers.ts'
import { requestIdOf } from './request-id.ts'
import { createOneRouteHandler } from './one-route-handler.ts'
import type { AnsweredRequest } from './answered.ts'

/** Where `/metrics` reads its text: `createPrometheusMetrics().scrape` (clubcred/metrics). */
export type MetricsExposition = () => Promise<{ contentType: string; body: string }>

/**
 * `GET /metrics` guarded by a bearer token (`CLUBCRED_METRICS_TOKEN`), given as its `hashSecret` hash:
 * 401 `invalid-token` without it or with another, the hashes compared in constant time so that timing
 * tells nothing of the token (as client secrets are checked).
 */
export async function guardedMetricsResponse(request: Request, scrape: MetricsExposition, tokenHash: string, problemBaseUrl: string): Promise<Response> {
  const presented = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? null
  if (presented === null || !(await verifySecret(presented, tokenHash))) {
    const problem = new ProblemError('invalid-token', { detail: 'GET /metrics needs the metrics bearer token.' })
    return withSecurityHeaders(problemResponse(problem, problemBaseUrl, requestIdOf(request)))
  }
  return metricsResponse(request, scrape)
}

/** The exposition itself, never cached. */
export async function metricsResponse(request: Request, scrape: MetricsExposition): Promise<Response> {
  const { contentType, body } = await scrape()
  return withSecurityHeaders(new Response(request.method === 'HEAD' ? null : body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } }))
}

/**
 * The whole fetch handler of the metrics port (`CLUBCRED_METRICS_PORT`): `GET /metrics` with no token,
 * since only the host itself reaches it (it listens on 127.0.0.1); anything else is a 404 problem. Its
 * answers carry a request id and are reported like the main port's (docs/logs.md § Request lines).
 */
export function createMetricsFetchHandler(
  scrape: MetricsExposition,
  problemBaseUrl: string,
  { onResponse }: { onResponse?: (answered: AnsweredRequest) => void } = {},
): (request: Request) => Promise<Response> {
  return createOneRouteHandler({
    path: '/metrics',
    respond: (request) => metricsResponse(request, scrape),
    notFound: 'This port serves GET /metrics only.',
    problemBaseUrl,
    onResponse,
  })
}
