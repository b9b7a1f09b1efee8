import { Router, type IRequest, type RouterType } from 'itty-router'
import { CredentialError, OAuthError, ProblemError } from '../../core/errors.ts'
import { authenticate } from './auth.ts'
import { readableFromAnyOrigin } from './cors.ts'
import { asProblem, problemResponse } from './problem.ts'
import { requestIdOf } from './request-id.ts'
import { oauthErrorResponse } from './oauth-error.ts'
import { credentialErrorResponse } from './credential-error.ts'
import type { ListQuery } from '../../core/lists/cursor.ts'
import { atBase, isPublicPath, type Surface } from './surface-bases.ts'
import type { Call, Operation } from './operation.ts'

/** What the router hands every handler besides its request. */
export type Served = Omit<Call, 'request'>

/**
 * Registers every operation on `router`, then a 405 with `Allow` for each known path with another
 * method, and returns the routes served (method and itty path). Access is enforced here, from the table
 * and nowhere else: a scoped operation runs only after the bearer token is verified, bound to the club
 * and found to hold the operation's scope (`core/tokens/authorize.ts`, in the order of docs/decisions/0004-authentication.md § Bearer checks);
 * the body is read after that, by the handler.
 */
export function mountOperations(
  router: RouterType,
  operations: readonly Operation[],
  { bases, served, problemBaseUrl }: { bases: Record<Surface, string>; served: Served; problemBaseUrl: string },
): { method: string; path: string }[] {
  const routes = operations.map((operation) => ({ operation, path: ittyPath(operation.path, bases) }))
  const allowed = new Map<string, string[]>()
  for (const { operation, path } of routes) {
    router[operation.method.toLowerCase() as 'get'](path, handlerOf(operation, served, problemBaseUrl))
    allowed.set(path, [...(allowed.get(path) ?? []), operation.method])
  }
  for (const [path, methods] of allowed) {
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ')
    router.all(path, () => {
      throw new ProblemError('method-not-allowed', { detail: `Allowed methods: ${allow}.`, extra: { allow } })
    })
  }
  return routes.map(({ operation, path }) => ({ method: operation.method, path }))
}

function handlerOf(operation: Operation, served: Served, problemBaseUrl: string): (request: IRequest) => Promise<Response> {
  if (operation.scope !== undefined) {
    const { scope, handle } = operation
    // The club of a v2 operation is its path's; v1 has none in its paths and acts for the token's club (docs/api.md §4.12).
    const clubInPath = operation.path.includes('{clubDomain}')
    return async (request) => {
      const principal = await authenticate(served.issuer, request)
      const club = clubInPath ? param(request, 'clubDomain') : principal.club
      served.issuer.tokens.authorize(principal, club, scope)
      return handle({ ...served, request, principal, club })
    }
  }
  const { handle } = operation
  if (!isPublicPath(operation.path)) return async (request) => handle({ ...served, request })
  // The public surface's errors (404 credential-not-found, a wallet's invalid_grant...) are readable from any origin too.
  const { vary } = operation
  return async (request) => {
    let response: Response
    try {
      response = await handle({ ...served, request })
    } catch (error) {
      const known = knownErrorResponse(error, problemBaseUrl, requestIdOf(request))
      if (!known) throw error
      response = readableFromAnyOrigin(known)
    }
    // A cache keeps one answer per value of the header the answer was chosen by, errors included.
    if (vary) response.headers.append('vary', vary)
    return response
  }
}

/** The answer of an error the public surface raises on purpose, each in its own shape; `null` for any other. */
function knownErrorResponse(error: unknown, problemBaseUrl: string, requestId: string): Response | null {
  const problem = asProblem(error)
  if (problem) return problemResponse(problem, problemBaseUrl, requestId)
  if (error instanceof OAuthError) return oauthErrorResponse(error)
  if (error instanceof CredentialError) return credentialErrorResponse(error)
  return null
}

/** `{base}/v2/clubs/{clubDomain}/` at base `/api` is itty's `/api/v2/clubs/:clubDomain/`. */
export function ittyPath(path: Operation['path'], bases: Record<Surface, string>): string {
  return atBase(path, bases).replace(/\{(\w+)\}/g, ':$1')
}

/** A path parameter, percent-decoded (itty-router hands them over raw). */
export function param(request: IRequest, name: string): string {
  const raw = request.params[name] ?? ''
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/**
 * A numeric path id, 1..2^53-1 (issuance ids are random up to there: 16 digits); anything else becomes 0,
 * an id that matches nothing, so the verb answers its own 404.
 */
export function numericId(request: IRequest, name = 'id'): number {
  const raw = param(request, name)
  const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0
  return Number.isSafeInteger(id) ? id : 0
}

/** `limit` and `cursor` of a cursor list (docs/decisions/0009-lists.md); a repeated parameter counts by its first value. */
export function listQuery(request: Request): ListQuery {
  const search = new URL(request.url).searchParams
  return { limit: search.get('limit'), cursor: search.get('cursor') }
}

export { Router }
