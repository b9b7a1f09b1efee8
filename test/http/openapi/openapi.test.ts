/**
 * The OpenAPI document is generated from the same valibot schemas core validates with, and lists
 * exactly the routes the router serves.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import type { Json } from '../../support/json.ts'

describe('GET /openapi.json', () => {
  let api: Api
  let document: Json
  before(async () => {
    api = await openApi()
    const response = await api.issuer.fetch(new Request('http://localhost:8787/openapi.json'))
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
    document = await response.json()
  })
  after(() => api.close())

  const documented = () =>
    Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
  const served = () => api.issuer.fetch.routes.map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`)

  it('is an OpenAPI 3.1 document', () => {
    assert.equal(document.openapi, '3.1.0')
    assert.equal(document.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl, 'http://localhost:8787/oauth/token')
  })

  it('documents every route the router serves', () => {
    const missing = served().filter((route) => !documented().includes(route))
    assert.deepEqual(missing, [], 'add these routes to adapters/http/operation-table.ts')
  })

  it('documents no route the router does not serve', () => {
    const extra = documented().filter((route) => !served().includes(route))
    assert.deepEqual(extra, [], 'these documented routes are not served')
  })

  it('takes request bodies from the valibot write schemas', () => {
    const create = document.paths['/v2/clubs/{clubDomain}/achievements'].post.requestBody.content['application/json'].schema
    assert.deepEqual(create.required.sort(), ['description', 'name'])
    assert.ok(create.properties.tag && create.properties.criteria && create.properties.nameEn)
    const issue = document.paths['/v2/clubs/{clubDomain}/issuances'].post
    assert.deepEqual(issue.requestBody.content['application/json'].schema.required.sort(), ['achievementFormId', 'recipients'])
    assert.ok(issue.parameters.some((parameter: { name: string; in: string }) => parameter.name === 'Idempotency-Key' && parameter.in === 'header'))
    assert.deepEqual(issue.security, [{ oauth2: ['svc:openapi:issuance:write'] }])
    const legacy = document.paths['/open-api/achievements/forms'].post
    assert.ok(legacy.requestBody.content['application/json'].schema.properties.achievementBadgeDesignId)
    assert.deepEqual(document.paths['/open-badges/v3/achievements/{issuanceId}/verify'].get.security, [])
    const design = document.paths['/v2/clubs/{clubDomain}/designs'].post.requestBody.content['application/json'].schema
    assert.deepEqual(design.required.sort(), ['kind', 'name'])
    assert.equal(document.components.schemas.Recipient.properties.email.format, 'email')
  })

  // POST /v1/achievements once had none.
  it('documents the request body of every POST and PATCH', () => {
    const withoutBody = Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method, operation]) => ['post', 'patch'].includes(method) && !operation.requestBody?.content)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    assert.deepEqual(withoutBody, [])
    const v1Issue = document.paths['/v1/achievements'].post.requestBody
    assert.equal(v1Issue.required, true)
    const schema = v1Issue.content['application/json'].schema
    assert.deepEqual(schema.required.sort(), ['formId', 'recipients'])
    assert.ok(schema.properties.mode && schema.properties.expiresAt)
    assert.equal(schema.properties.achievementFormId, undefined)
    const token = document.paths['/oauth/token'].post.requestBody.content['application/x-www-form-urlencoded'].schema
    assert.deepEqual(token.required, ['grant_type'])
  })
})
