/**
 * @module clubcred: an embeddable Open Badges 3.0 issuer. `createIssuer` is core plus its HTTP face.
 *
 * @example
 * import { createIssuer, defaultUrls } from 'clubcred'
 * import { createMemoryStorage } from 'clubcred/memory'
 * const issuer = createIssuer({ storage: createMemoryStorage(), masterKey, urls: defaultUrls(8787) })
 * const response = await issuer.fetch(new Request('http://localhost:8787/oauth/token', { method: 'POST' }))
 */
import { createCoreIssuer, type IssuerOptions } from './core/create-core-issuer.ts'
import type { CoreIssuer } from './core/core-issuer.ts'
import { createFetchHandler as createHttpFetchHandler, type FetchHandler, type FetchHandlerOptions } from './adapters/http/index.ts'
import { createAdminSurface } from './adapters/admin/surface.ts'

export * from './core/index.ts'
export type { FetchHandler, FetchHandlerOptions } from './adapters/http/index.ts'

/**
 * The HTTP face of an issuer with its staff console: every surface of docs/api.md, and `/admin`. The
 * console is wired here, in the composition root, because adapters/http/ never imports adapters/admin/.
 */
export function createFetchHandler(issuer: CoreIssuer, options: FetchHandlerOptions = {}): FetchHandler {
  return createHttpFetchHandler(issuer, { console: createAdminSurface, ...options })
}

/** An issuer with its HTTP face: the core operations (`CoreIssuer`) plus `fetch`. */
export interface Issuer extends CoreIssuer {
  /** Answers a request on every surface of docs/api.md (club API, OAuth, public, v1, legacy). */
  fetch: FetchHandler
}

/** Creates an issuer with its HTTP face: the core operations plus `fetch(request)`. */
export function createIssuer(options: IssuerOptions & { http?: FetchHandlerOptions }): Issuer {
  const core = createCoreIssuer(options)
  const fetch = createFetchHandler(core, options.http)
  return { ...core, fetch }
}
