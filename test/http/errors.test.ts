/**
 * The generic HTTP face through the real server process: unknown routes, wrong methods, HEAD, bodies
 * too large; every error a problem document (docs/decisions/0007-http-face.md), never a 500.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { FORM, accessToken, basic } from '../support/tokens.ts'
import { adminClubAndClient, clubRoot, errorLines, openAdmin, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'
import { assertOAuthError, assertProblem } from '../support/assertions.ts'

describe('the HTTP face', () => {
  let server: ServerProcess
  let client: { client_id: string; client_secret: string }
  let token: string

  before(async () => {
    server = await startServer()
    const admin = openAdmin(server.dataDir)
    client = await adminClubAndClient(admin, 'errs')
    await admin.close()
    token = await accessToken(server, client)
  })
  after(async () => {
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
    assert.doesNotMatch(server.stderr, /failed:/, 'no request ended in a 500')
    assert.deepEqual(errorLines(server), [], 'no request ended in a 500')
  })

  for (const path of ['/', '/nope', '/v2', '/v2/clubs', '/v2/clubs/errs/nope', '/v3/clubs/errs/', '/oauth', '/oauth/authorize']) {
    it(`an unknown route (${path}) is 404 route-not-found`, async () => {
      assertProblem(await server.http(path, { headers: { authorization: `Bearer ${token}` } }), 404, 'route-not-found')
    })
  }

  it('POST on the club root is 405 method-not-allowed with Allow: GET, HEAD', async () => {
    const response = await server.http('/v2/clubs/errs/', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    assertProblem(response, 405, 'method-not-allowed')
    assert.equal(response.headers.allow, 'GET, HEAD')
  })

  it('DELETE and PUT on the club root are 405 as well', async () => {
    for (const method of ['DELETE', 'PUT'] as const) {
      const response = await server.http('/v2/clubs/errs/', { method, headers: { authorization: `Bearer ${token}` } })
      assertProblem(response, 405, 'method-not-allowed')
      assert.equal(response.headers.allow, 'GET, HEAD')
    }
  })

  it('HEAD of the club root answers the GET status and headers without a body', async () => {
    const head = await clubRoot(server, 'errs', token, 'HEAD')
    assert.equal(head.status, 200)
    assert.match(head.headers['content-type'] ?? '', /^application\/json\b/)
    assert.equal(head.text, '')
    const unauthenticated = await clubRoot(server, 'errs', null, 'HEAD')
    assert.equal(unauthenticated.status, 401)
    assert.equal(unauthenticated.text, '')
    assert.match(unauthenticated.headers['www-authenticate'] ?? '', /error="invalid_token"/)
  })

  it('the club root path without its trailing slash reads the same club', async () => {
    const response = await server.http('/v2/clubs/errs', { headers: { authorization: `Bearer ${token}` } })
    assert.equal(response.status, 200, response.text)
    assert.equal(response.json.data.domain, 'errs')
  })

  it('a percent-encoded club domain is decoded, and a broken escape is a 4xx, never a 500', async () => {
    const encoded = await server.http('/v2/clubs/%65rrs/', { headers: { authorization: `Bearer ${token}` } })
    assert.equal(encoded.status, 200, encoded.text)
    const broken = await server.http('/v2/clubs/%E0%A4%A/', { headers: { authorization: `Bearer ${token}` } })
    assertProblem(broken, 403, 'club-forbidden')
  })

  it('a token request body over 1 MiB is 400 invalid_request, and the server keeps serving', async () => {
    const response = await server.http('/oauth/token', {
      method: 'POST',
      headers: { authorization: basic(client.client_id, client.client_secret), 'content-type': FORM },
      body: 'grant_type=client_credentials&pad=' + 'x'.repeat(1024 * 1024),
    })
    assertOAuthError(response, 400, 'invalid_request')
    assert.equal((await clubRoot(server, 'errs', token)).status, 200)
  })

  it('problem documents are not cacheable', async () => {
    const response = await server.http('/nope')
    assert.equal(response.headers['cache-control'], 'no-store')
  })
})
