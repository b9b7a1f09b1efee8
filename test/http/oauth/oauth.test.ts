/**
 * The token endpoint (docs/api.md §4.1, RFC 6749 §4.4) through the real server process.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { SCOPE_NAMES } from '../../../core/scopes.ts'
import { FORM, accessToken, basic, tokenRequest } from '../../support/tokens.ts'
import {
  adminClubAndClient,
  clubAndClient,
  openAdmin,
  clubRoot,
  removeDataDir,
  startServer,
  type HttpResponse,
  type ServerProcess,
} from '../../support/server.ts'
import { assertOAuthError } from '../../support/assertions.ts'

type Client = { client_id: string; client_secret: string }

function assertBasicChallenge(response: HttpResponse): void {
  assert.match(response.headers['www-authenticate'] ?? '', /^Basic\b/i)
}

describe('POST /oauth/token', () => {
  let server: ServerProcess
  let full: Client
  let limited: Client
  let admin: ReturnType<typeof openAdmin>

  before(async () => {
    server = await startServer()
    admin = openAdmin(server.dataDir)
    full = await adminClubAndClient(admin, 'oauth-full')
    limited = await adminClubAndClient(admin, 'oauth-limited', ['clubs:read', 'issuance:read'])
  })
  after(async () => {
    await admin.close()
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
  })

  const post = (headers: Record<string, string>, body: string) => server.http('/oauth/token', { method: 'POST', headers, body })

  it('answers { access_token, token_type: Bearer, expires_in: 900, scope } with Cache-Control no-store', async () => {
    const response = await tokenRequest(server, full)
    assert.equal(response.status, 200, response.text)
    assert.match(response.headers['content-type'] ?? '', /^application\/json\b/)
    assert.equal(response.headers['cache-control'], 'no-store')
    assert.deepStrictEqual(Object.keys(response.json).sort(), ['access_token', 'expires_in', 'scope', 'token_type'])
    assert.equal(response.json.token_type, 'Bearer')
    assert.equal(response.json.expires_in, 900)
    assert.equal(response.json.scope, SCOPE_NAMES.map((name) => `svc:openapi:${name}`).join(' '))
  })

  it('the access token is an ES256 JWT whose kid is the platform key, with iss, sub, aud, club, scope, iat, exp, jti', async () => {
    const before = Math.floor(Date.now() / 1000)
    const response = await tokenRequest(server, limited)
    const after = Math.ceil(Date.now() / 1000)
    const token = response.json.access_token as string
    const header = decodeProtectedHeader(token)
    assert.equal(header.alg, 'ES256')
    assert.equal(header.typ, 'at+jwt')

    const db = new Database(join(server.dataDir, 'clubcred.db'), { readonly: true })
    try {
      const platform = db.prepare("SELECT kid FROM keys WHERE owner = 'platform' AND active = 1").pluck().all()
      assert.deepStrictEqual(platform, [header.kid])
    } finally {
      db.close()
    }

    const claims = decodeJwt(token)
    const port = new URL(server.url).port
    assert.equal(claims.iss, `http://localhost:${port}/oauth`)
    assert.equal(claims.aud, `http://localhost:${port}`)
    assert.equal(claims.sub, limited.client_id)
    assert.equal(claims.club, 'oauth-limited')
    assert.equal(claims.scope, 'svc:openapi:clubs:read svc:openapi:issuance:read')
    assert.equal(claims.scope, response.json.scope)
    assert.ok(claims.iat! >= before && claims.iat! <= after, `iat ${claims.iat} not in [${before}, ${after}]`)
    assert.equal(claims.exp, claims.iat! + 900)
    assert.match(String(claims.jti), /^[0-9a-f-]{36}$/)
  })

  it('a wrong secret is 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const response = await tokenRequest(server, { client_id: full.client_id, client_secret: full.client_secret.slice(0, -1) + 'x' })
    assertOAuthError(response, 401, 'invalid_client')
    assertBasicChallenge(response)
  })

  it('no Authorization header is 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const response = await post({ 'content-type': FORM }, 'grant_type=client_credentials')
    assertOAuthError(response, 401, 'invalid_client')
    assertBasicChallenge(response)
  })

  it('credentials in the body instead of HTTP Basic are 401 invalid_client', async () => {
    const body = new URLSearchParams({ grant_type: 'client_credentials', ...full }).toString()
    assertOAuthError(await post({ 'content-type': FORM }, body), 401, 'invalid_client')
  })

  for (const [what, authorization] of [
    ['a Bearer header', 'Bearer abc'],
    ['Basic that is not base64', 'Basic !!!'],
    ['Basic without a colon', 'Basic ' + Buffer.from('no-colon').toString('base64')],
    ['Basic of an unknown client', basic('cc_000000000000000000000000', 'ccs_x')],
  ]) {
    it(`${what} is 401 invalid_client`, async () => {
      const response = await post({ authorization: authorization!, 'content-type': FORM }, 'grant_type=client_credentials')
      assertOAuthError(response, 401, 'invalid_client')
      assertBasicChallenge(response)
    })
  }

  it('an unknown grant type is 400 unsupported_grant_type', async () => {
    const response = await post({ authorization: basic(full.client_id, full.client_secret), 'content-type': FORM }, 'grant_type=password&username=a&password=b')
    assertOAuthError(response, 400, 'unsupported_grant_type')
  })

  it('a missing grant_type is 400 invalid_request', async () => {
    const response = await post({ authorization: basic(full.client_id, full.client_secret), 'content-type': FORM }, 'scope=svc%3Aopenapi%3Aclubs%3Aread')
    assertOAuthError(response, 400, 'invalid_request')
  })

  it('a body that is not form-urlencoded is 400 invalid_request', async () => {
    const response = await post(
      { authorization: basic(full.client_id, full.client_secret), 'content-type': 'application/json' },
      JSON.stringify({ grant_type: 'client_credentials' }),
    )
    assertOAuthError(response, 400, 'invalid_request')
  })

  it('a repeated parameter is 400 invalid_request (RFC 6749 §3.2)', async () => {
    const headers = { authorization: basic(full.client_id, full.client_secret), 'content-type': FORM }
    assertOAuthError(await post(headers, 'grant_type=client_credentials&grant_type=client_credentials'), 400, 'invalid_request')
    assertOAuthError(
      await post(headers, 'grant_type=client_credentials&scope=svc%3Aopenapi%3Aclubs%3Aread&scope=svc%3Aopenapi%3Aevents%3Aread'),
      400,
      'invalid_request',
    )
  })

  it('a scope the client was not granted is 400 invalid_scope', async () => {
    const response = await tokenRequest(server, limited, 'svc:openapi:clubs:read svc:openapi:issuance:write')
    assertOAuthError(response, 400, 'invalid_scope')
  })

  for (const scope of ['svc:openapi:clubs:write', 'clubs:read', 'openid profile']) {
    it(`the unknown scope string ${JSON.stringify(scope)} is 400 invalid_scope`, async () => {
      assertOAuthError(await tokenRequest(server, full, scope), 400, 'invalid_scope')
    })
  }

  it('a scope asked for by its name is the only scope granted, and the club root shows only it', async () => {
    const response = await tokenRequest(server, full, 'svc:openapi:clubs:read')
    assert.equal(response.status, 200, response.text)
    assert.equal(response.json.scope, 'svc:openapi:clubs:read')
    assert.equal(decodeJwt(response.json.access_token).scope, 'svc:openapi:clubs:read')
    const root = await clubRoot(server, 'oauth-full', response.json.access_token)
    assert.deepStrictEqual(root.json.data.grantedOperations, ['clubs:read'])
  })

  it('takes Basic credentials form-urlencoded before base64 (RFC 6749 §2.3.1)', async () => {
    // Every character percent-encoded: a server that does not form-decode cannot find this client.
    const percent = (value: string) => [...value].map((c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')).join('')
    const authorization = 'Basic ' + Buffer.from(`${percent(full.client_id)}:${percent(full.client_secret)}`).toString('base64')
    const response = await post({ authorization, 'content-type': FORM }, 'grant_type=client_credentials')
    assert.equal(response.status, 200, response.text)
    assert.equal(decodeJwt(response.json.access_token).sub, full.client_id)
    // ...and the plain form most clients send works as well.
    const plain = 'Basic ' + Buffer.from(`${full.client_id}:${full.client_secret}`).toString('base64')
    assert.equal((await post({ authorization: plain, 'content-type': FORM }, 'grant_type=client_credentials')).status, 200)
  })

  it('accepts a charset parameter on the form content type', async () => {
    const response = await post(
      { authorization: basic(full.client_id, full.client_secret), 'content-type': `${FORM}; charset=UTF-8` },
      'grant_type=client_credentials',
    )
    assert.equal(response.status, 200, response.text)
  })

  it('GET is 405 with Allow: POST', async () => {
    const response = await server.http('/oauth/token')
    assert.equal(response.status, 405)
    assert.equal(response.headers.allow, 'POST')
    assert.equal(response.json.code, 'method-not-allowed')
  })

  it('after 10 wrong secrets even the right one is 429 with Retry-After; another client id is unaffected', async () => {
    const victim = await adminClubAndClient(admin, 'oauth-victim')
    const bystander = await adminClubAndClient(admin, 'oauth-bystander')
    const wrong = { client_id: victim.client_id, client_secret: victim.client_secret + 'x' }
    for (let i = 0; i < 10; i++) assertOAuthError(await tokenRequest(server, wrong), 401, 'invalid_client')
    const limitedResponse = await tokenRequest(server, victim)
    assert.equal(limitedResponse.status, 429, limitedResponse.text)
    assert.equal(limitedResponse.json.error, 'rate_limited')
    const retryAfter = Number(limitedResponse.headers['retry-after'])
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${limitedResponse.headers['retry-after']}`)
    assert.equal((await tokenRequest(server, wrong)).status, 429)

    const other = await tokenRequest(server, bystander)
    assert.equal(other.status, 200, other.text)
    assert.equal((await clubRoot(server, 'oauth-bystander', other.json.access_token)).status, 200)
  })

  it('a CLI-made client works at once on the running server', async () => {
    const client = await clubAndClient(server.dataDir, 'oauth-late')
    const token = await accessToken(server, client)
    assert.equal((await clubRoot(server, 'oauth-late', token)).json.data.domain, 'oauth-late')
  })
})
