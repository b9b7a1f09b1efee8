import { withSecurityHeaders } from './security-headers.ts'
import type { Readiness } from '../../core/health/readiness.ts'

/** Probes answer for this moment only: no cache, no proxy, may keep an answer. */
const PROBE_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' }

/**
 * `GET /healthz`: the process lives and its HTTP face answers; nothing else is checked, so that an
 * orchestrator restarts only a process that is truly wedged. `role` names the process's role when given.
 */
export function healthResponse(request: Request, role?: string): Response {
  return probeResponse(request, 200, { status: 'ok', ...(role ? { role } : {}) })
}

/**
 * `GET /readyz`: 200 `{"status":"ready"}` when the process should get traffic, else 503
 * `{"status":"unavailable","reason":…}` with the reason of `core/health/readiness.ts`.
 */
export function readinessResponse(request: Request, readiness: Readiness): Response {
  return readiness.ready ? probeResponse(request, 200, { status: 'ready' }) : probeResponse(request, 503, { status: 'unavailable', reason: readiness.reason })
}

function probeResponse(request: Request, status: number, body: object): Response {
  return withSecurityHeaders(new Response(request.method === 'HEAD' ? null : JSON.stringify(body), { status, headers: PROBE_HEADERS }))
}
