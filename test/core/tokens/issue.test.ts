import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose'
import { OAuthError } from '../../../core/errors.ts'
import { SCOPE_NAMES } from '../../../core/scopes.ts'
import { TEST_EPOCH } from '../../support/clock.ts'
import { tokenFor } from '../../support/tokens.ts'
import { clubWithClient, createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

const oauthError = (code: string) => (error: unknown) => {
  assert.ok(error instanceof OAuthError, `expected OAuthError, got ${error}`)
  assert.equal(error.error, code)
  return true
}

describe('issuing an access token (client credentials)', () => {
  let h: CoreHarness
  beforeEach(() => {
    h = createCoreHarness()
  })
  afterEach(() => h.close())

  it('answers { access_token, token_type: Bearer, expires_in: 900, scope } with every scope the client holds', async () => {
    const client = await clubWithClient(h.issuer)
    const token = await tokenFor(h.issuer, client)
    assert.deepStrictEqual(Object.keys(token).sort(), ['access_token', 'expires_in', 'scope', 'token_type'])
    assert.equal(token.token_type, 'Bearer')
    assert.equal(token.expires_in, 900)
    assert.equal(token.scope, SCOPE_NAMES.map((name) => `svc:openapi:${name}`).join(' '))
  })

  it('signs an ES256 at+jwt with the platform key and the claims of the decisions', async () => {
    const client = await clubWithClient(h.issuer, 'chess', ['clubs:read', 'issuance:read'])
    const token = await tokenFor(h.issuer, client)
    const header = decodeProtectedHeader(token.access_token)
    const platform = await h.keys.activeKey('platform')
    assert.deepStrictEqual(header, { alg: 'ES256', typ: 'at+jwt', kid: platform.kid })

    const { payload } = await jwtVerify(token.access_token, await importJWK(platform.publicJwk, 'ES256'), {
      currentDate: new Date(TEST_EPOCH),
    })
    const iat = TEST_EPOCH / 1000
    assert.deepStrictEqual(Object.keys(payload).sort(), ['aud', 'club', 'exp', 'iat', 'iss', 'jti', 'scope', 'sgen', 'sub'])
    assert.equal(payload.iss, 'http://localhost:8787/oauth')
    assert.equal(payload.sub, client.client_id)
    assert.equal(payload.aud, 'http://localhost:8787')
    assert.equal(payload.club, 'chess')
    assert.equal(payload.scope, 'svc:openapi:clubs:read svc:openapi:issuance:read')
    assert.equal(payload.iat, iat)
    assert.equal(payload.exp, iat + 900)
    assert.match(String(payload.jti), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('every token gets its own jti', async () => {
    const client = await clubWithClient(h.issuer)
    const tokens = await Promise.all(Array.from({ length: 5 }, () => tokenFor(h.issuer, client)))
    assert.equal(new Set(tokens.map((t) => decodeJwt(t.access_token).jti)).size, 5)
  })

  it('grants only the scopes asked for by their svc:openapi names, in the order of docs/api.md §2.2', async () => {
    const client = await clubWithClient(h.issuer)
    const token = await tokenFor(h.issuer, client, 'svc:openapi:events:read  svc:openapi:clubs:read svc:openapi:events:read')
    assert.equal(token.scope, 'svc:openapi:clubs:read svc:openapi:events:read')
    assert.equal(decodeJwt(token.access_token).scope, token.scope)
  })

  it('an empty scope parameter grants every scope the client holds', async () => {
    const client = await clubWithClient(h.issuer, 'chess', ['clubs:read', 'events:read'])
    assert.equal((await tokenFor(h.issuer, client, '')).scope, 'svc:openapi:clubs:read svc:openapi:events:read')
    assert.equal((await tokenFor(h.issuer, client, '   ')).scope, 'svc:openapi:clubs:read svc:openapi:events:read')
  })

  it('a scope the client does not hold is invalid_scope', async () => {
    const client = await clubWithClient(h.issuer, 'chess', ['clubs:read'])
    await assert.rejects(tokenFor(h.issuer, client, 'svc:openapi:clubs:read svc:openapi:issuance:write'), oauthError('invalid_scope'))
  })

  for (const scope of ['clubs:read', 'svc:openapi:clubs:write', 'svc:openapi:', 'openid', 'svc:api:clubs:read']) {
    it(`the unknown scope string ${JSON.stringify(scope)} is invalid_scope`, async () => {
      const client = await clubWithClient(h.issuer)
      await assert.rejects(tokenFor(h.issuer, client, scope), oauthError('invalid_scope'))
    })
  }

  it('a missing grant_type is invalid_request and another grant is unsupported_grant_type', async () => {
    const client = await clubWithClient(h.issuer)
    const base = { clientId: client.client_id, clientSecret: client.client_secret, scope: null }
    await assert.rejects(h.issuer.tokens.issue({ ...base, grantType: null }), oauthError('invalid_request'))
    await assert.rejects(h.issuer.tokens.issue({ ...base, grantType: '' }), oauthError('invalid_request'))
    await assert.rejects(h.issuer.tokens.issue({ ...base, grantType: 'password' }), oauthError('unsupported_grant_type'))
    await assert.rejects(h.issuer.tokens.issue({ ...base, grantType: 'Client_Credentials' }), oauthError('unsupported_grant_type'))
  })

  it('client authentication comes first: no or wrong credentials are invalid_client whatever the grant', async () => {
    const client = await clubWithClient(h.issuer)
    const cases = [
      { clientId: null, clientSecret: null },
      { clientId: client.client_id, clientSecret: null },
      { clientId: '', clientSecret: client.client_secret },
      { clientId: client.client_id, clientSecret: client.client_secret + 'x' },
      { clientId: client.client_id, clientSecret: '' },
      { clientId: 'cc_unknown', clientSecret: client.client_secret },
    ]
    for (const credentials of cases) {
      await assert.rejects(h.issuer.tokens.issue({ ...credentials, grantType: 'password', scope: 'bogus' }), oauthError('invalid_client'))
    }
  })

  it('the platform key is created once, on the first token, and reused', async () => {
    const client = await clubWithClient(h.issuer)
    assert.deepStrictEqual(await h.storage.keys.listByOwner('platform'), [])
    const first = decodeProtectedHeader((await tokenFor(h.issuer, client)).access_token).kid
    const second = decodeProtectedHeader((await tokenFor(h.issuer, client)).access_token).kid
    assert.equal(first, second)
    assert.equal((await h.storage.keys.listByOwner('platform')).length, 1)
  })
})
