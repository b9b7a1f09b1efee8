/**
 * `X-Content-Type-Options: nosniff` on every answer of every surface: API, public,
 * share pages, files, OAuth, legacy, errors, 404 and 405, HEAD and the CORS preflight.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openApi, type Api } from '../support/api-harness.ts'
import { ORIGIN } from '../support/origin.ts'

describe('security headers', () => {
  let api: Api
  before(async () => {
    api = await openApi({ club: 'sniff' })
  })
  after(() => api.close())

  const auth = () => ({ authorization: `Bearer ${api.token}` })
  const json = { 'content-type': 'application/json' }
  const cases: [string, () => Request][] = [
    ['club root', () => new Request(`${ORIGIN}/v2/clubs/sniff/`, { headers: auth() })],
    ['HEAD club root', () => new Request(`${ORIGIN}/v2/clubs/sniff/`, { method: 'HEAD', headers: auth() })],
    ['401 without a token', () => new Request(`${ORIGIN}/v2/clubs/sniff/`)],
    ['422 validation', () => new Request(`${ORIGIN}/v2/clubs/sniff/achievements`, { method: 'POST', headers: { ...auth(), ...json }, body: '{}' })],
    ['400 invalid-json', () => new Request(`${ORIGIN}/v2/clubs/sniff/achievements`, { method: 'POST', headers: { ...auth(), ...json }, body: '{' })],
    ['404 route', () => new Request(`${ORIGIN}/nope`)],
    ['405 method', () => new Request(`${ORIGIN}/v2/clubs/sniff/`, { method: 'DELETE', headers: auth() })],
    ['file 404', () => new Request(`${ORIGIN}/v2/clubs/sniff/issuances/9/file?format=pdf`, { headers: auth() })],
    [
      'token error',
      () =>
        new Request(`${ORIGIN}/oauth/token`, {
          method: 'POST',
          body: 'grant_type=client_credentials',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
    ],
    ['legacy 401', () => new Request(`${ORIGIN}/open-api/achievements/forms`, { method: 'POST', headers: json, body: '{}' })],
    ['v1 404', () => new Request(`${ORIGIN}/v1/achievements/9`, { headers: auth() })],
    ['verdict 404', () => new Request(`${ORIGIN}/open-badges/v3/achievements/9/verify`)],
    ['DID document', () => new Request(`${ORIGIN}/open-badges/v3/issuers/sniff/did.json`)],
    ['CORS preflight', () => new Request(`${ORIGIN}/open-badges/v3/issuers/sniff/did.json`, { method: 'OPTIONS' })],
    ['skill', () => new Request(`${ORIGIN}/skills/chess`)],
    ['OpenAPI document', () => new Request(`${ORIGIN}/openapi.json`)],
    ['share page 404', () => new Request('http://sniff.localhost:8787/credentials/00000000-0000-0000-0000-000000000000')],
    ['share page 405', () => new Request('http://sniff.localhost:8787/credentials/00000000-0000-0000-0000-000000000000', { method: 'POST' })],
  ]
  for (const [name, request] of cases) {
    it(`${name}: nosniff`, async () => {
      const response = await api.issuer.fetch(request())
      await response.arrayBuffer()
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${name} (${response.status})`)
    })
  }
})
