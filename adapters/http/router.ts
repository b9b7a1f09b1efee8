import { Router, type IRequest, type RouterType } from 'itty-router'
import { ProblemError } from '../../core/errors.ts'

export type Handler = (request: IRequest) => Promise<Response> | Response

/**
 * Routes of one surface, with the methods each path allows, so that a known path with another method
 * answers 405 with `Allow` instead of 404.
 */
export interface RouteTable {
  add(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, handler: Handler): void
  /** Registers the routes on `router`, then a 405 catch-all for each path. */
  mount(router: RouterType): void
  /** Every route added, in order: the OpenAPI document is checked against it. */
  list(): { method: string; path: string }[]
}

export function createRouteTable(): RouteTable {
  const routes: { method: string; path: string; handler: Handler }[] = []
  return {
    add(method, path, handler) {
      routes.push({ method, path, handler })
    },
    list() {
      return routes.map(({ method, path }) => ({ method, path }))
    },
    mount(router) {
      const allowed = new Map<string, string[]>()
      for (const { method, path, handler } of routes) {
        router[method.toLowerCase() as 'get'](path, handler)
        allowed.set(path, [...(allowed.get(path) ?? []), method])
      }
      for (const [path, methods] of allowed) {
        const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ')
        router.all(path, () => {
          throw new ProblemError('method-not-allowed', { detail: `Allowed methods: ${allow}.`, extra: { allow } })
        })
      }
    },
  }
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

export { Router }
