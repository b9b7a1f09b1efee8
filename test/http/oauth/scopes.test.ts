/**
 * The scope of each operation is written once, in the operation table (adapters/http/operation-table.ts): the
 * OpenAPI document names it and the router enforces it. For every documented operation with a scope, a
 * token holding every other scope is refused with 403 insufficient-scope naming it, and a token holding
 * only that scope gets past the scope check. The documented scopes are pinned to docs/decisions/0003-scopes-per-operation.md
 * here as well, since a wrong table entry is documented and enforced alike.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { SCOPE_NAMES, toScopeString, type ScopeName } from '../../../core/scopes.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ORIGIN } from '../../support/origin.ts'
import type { Json } from '../../support/json.ts'

/** docs/decisions/0003-scopes-per-operation.md, and the v1 operations with the scopes of their v2 twins (docs/api.md §4.12). */
const DESIGN_SCOPES: Record<string, ScopeName> = {
  'GET /v2/clubs/{clubDomain}/': 'clubs:read',
  'GET /v2/clubs/{clubDomain}/achievements': 'achievements:read',
  'POST /v2/clubs/{clubDomain}/achievements': 'achievements:manage',
  'GET /v2/clubs/{clubDomain}/achievements/{id}': 'achievements:read',
  'PATCH /v2/clubs/{clubDomain}/achievements/{id}': 'achievements:manage',
  'POST /v2/clubs/{clubDomain}/issuances': 'issuance:write',
  'POST /v2/clubs/{clubDomain}/issuances/{id}/revoke': 'issuance:revoke',
  // docs/decisions/0046-reissue.md: a reissue issues, so it takes the issue operation's scope.
  'POST /v2/clubs/{clubDomain}/issuances/{id}/reissue': 'issuance:write',
  'POST /v2/clubs/{clubDomain}/issuances/reissue': 'issuance:write',
  'POST /v2/clubs/{clubDomain}/issuances/revoke': 'issuance:revoke',
  'POST /v2/clubs/{clubDomain}/issuances/{id}/notify': 'issuance:write',
  'GET /v2/clubs/{clubDomain}/issuances': 'issuance:read',
  'GET /v2/clubs/{clubDomain}/issuances/{id}': 'issuance:read',
  'GET /v2/clubs/{clubDomain}/issuances/{id}/credential': 'issuance:read',
  'GET /v2/clubs/{clubDomain}/issuances/{id}/file': 'issuance:read',
  'GET /v2/clubs/{clubDomain}/events': 'events:read',
  'GET /v2/clubs/{clubDomain}/designs': 'designs:read',
  'POST /v2/clubs/{clubDomain}/designs': 'designs:manage',
  'GET /v2/clubs/{clubDomain}/designs/{id}': 'designs:read',
  'PATCH /v2/clubs/{clubDomain}/designs/{id}': 'designs:manage',
  'GET /v1/forms/{id}': 'achievements:read',
  'POST /v1/forms': 'achievements:manage',
  'PATCH /v1/forms/{id}': 'achievements:manage',
  'POST /v1/achievements': 'issuance:write',
  'GET /v1/achievements/{id}': 'issuance:read',
}

interface Documented {
  method: string
  path: string
  scope: ScopeName
}

describe('the scope each operation documents is the scope enforced', () => {
  let api: Api
  let document: Json
  /** Per scope: a token holding every other scope, and one holding only it. */
  const without = new Map<ScopeName, string>()
  const only = new Map<ScopeName, string>()

  before(async () => {
    api = await openApi()
    document = await (await api.issuer.fetch(new Request(`${ORIGIN}/openapi.json`))).json()
    for (const scope of SCOPE_NAMES) {
      without.set(scope, await api.tokenWith(SCOPE_NAMES.filter((other) => other !== scope)))
      only.set(scope, await api.tokenWith([scope]))
    }
  })
  after(() => api.close())

  /** Every documented operation whose security names an oauth2 scope. */
  const scoped = (): Documented[] =>
    Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => {
        const scopes: string[] = operation.security?.[0]?.oauth2 ?? []
        assert.ok(scopes.length <= 1, `${method} ${path} names one scope at most`)
        if (scopes.length === 0) return []
        const scope = SCOPE_NAMES.find((name) => toScopeString(name) === scopes[0])
        assert.ok(scope, `${method} ${path} names a scope of docs/api.md §2.2: ${scopes[0]}`)
        return [{ method: method.toUpperCase(), path, scope }]
      }),
    )

  const send = (operation: Documented, token: string) => {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'clubDomain' ? api.club : '1'))
    const hasBody = operation.method !== 'GET'
    return api.issuer.fetch(
      new Request(`${ORIGIN}${path}`, {
        method: operation.method,
        headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        ...(hasBody ? { body: '{}' } : {}),
      }),
    )
  }

  it('the oauth2 scheme describes all ten scopes by their svc:openapi strings', () => {
    const scopes = document.components.securitySchemes.oauth2.flows.clientCredentials.scopes
    assert.deepEqual(Object.keys(scopes), SCOPE_NAMES.map(toScopeString))
    for (const [scope, description] of Object.entries(scopes)) assert.ok(typeof description === 'string' && description.length > 0, scope)
  })

  it('documents the scopes docs/decisions/0003-scopes-per-operation.md decides, and no scope on any other operation', () => {
    const documented = Object.fromEntries(scoped().map(({ method, path, scope }) => [`${method} ${path}`, scope]))
    assert.deepEqual(documented, DESIGN_SCOPES)
  })

  it('every other scope is 403 insufficient-scope, and the documented scope alone passes', async (t) => {
    const operations = scoped()
    assert.equal(operations.length, Object.keys(DESIGN_SCOPES).length)
    for (const operation of operations) {
      await t.test(`${operation.method} ${operation.path} needs ${operation.scope}`, async () => {
        const refused = await send(operation, without.get(operation.scope)!)
        const problem = (await refused.json()) as { code?: string }
        assert.equal(refused.status, 403, JSON.stringify(problem))
        assert.equal(problem.code, 'insufficient-scope')
        assert.match(refused.headers.get('www-authenticate') ?? '', new RegExp(`scope="${toScopeString(operation.scope)}"`))

        const allowed = await send(operation, only.get(operation.scope)!)
        const text = await allowed.text()
        assert.notEqual(allowed.status, 401, text)
        assert.ok(!(allowed.status === 403 && text.includes('insufficient-scope')), `with only ${operation.scope}: ${allowed.status} ${text}`)
      })
    }
  })
})
