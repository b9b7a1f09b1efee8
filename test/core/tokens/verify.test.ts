import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { SignJWT, decodeJwt, decodeProtectedHeader, exportSPKI, generateKeyPair, importJWK, type JWTPayload } from 'jose'
import { ProblemError } from '../../../core/errors.ts'
import { createKeyStore } from '../../../core/keys/create-key-store.ts'
import { createCoreIssuer } from '../../../core/create-core-issuer.ts'
import { toBase64Url } from '../../../core/crypto/base64url.ts'
import { TEST_EPOCH } from '../../support/clock.ts'
import { tokenFor } from '../../support/tokens.ts'
import { MASTER_KEY, clubWithClient, createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'

const isInvalidToken = (error: unknown) => {
  assert.ok(error instanceof ProblemError, `expected ProblemError, got ${error}`)
  assert.equal(error.code, 'invalid-token')
  return true
}

const encode = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)))

describe('verifying an access token', () => {
  let h: CoreHarness
  let client: { client_id: string; client_secret: string }
  let token: string
  beforeEach(async () => {
    h = createCoreHarness()
    client = await clubWithClient(h.issuer, 'chess', ['clubs:read', 'events:read'])
    token = (await tokenFor(h.issuer, client)).access_token
  })
  afterEach(() => h.close())

  /** Signs `payload` with the real platform key, header and claims as given. */
  async function forge(payload: JWTPayload, header: Record<string, unknown> = {}) {
    const key = await h.keys.activeKey('platform')
    return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid, ...header }).sign(key.privateKey)
  }
  const claims = () => decodeJwt(token)

  it('a fresh token yields its client, club, scope names and jti', async () => {
    assert.deepStrictEqual(await h.issuer.tokens.verify(token), {
      clientId: client.client_id,
      club: 'chess',
      scopes: ['clubs:read', 'events:read'],
      tokenId: claims().jti,
    })
  })

  it('is accepted 899 s after issue and refused from 900 s on', async () => {
    h.clock.advance(899_999)
    assert.equal((await h.issuer.tokens.verify(token)).club, 'chess')
    h.clock.advance(1)
    await assert.rejects(h.issuer.tokens.verify(token), isInvalidToken)
  })

  it('a signature forged copy of our own claims is accepted: the forge helper is sound', async () => {
    assert.equal((await h.issuer.tokens.verify(await forge(claims()))).club, 'chess')
  })

  it('refuses alg none', async () => {
    const unsigned = `${encode({ alg: 'none', typ: 'at+jwt', kid: decodeProtectedHeader(token).kid })}.${token.split('.')[1]}.`
    await assert.rejects(h.issuer.tokens.verify(unsigned), isInvalidToken)
  })

  it('refuses HS256 tokens keyed with the platform public key, in every encoding', async () => {
    const key = await h.keys.activeKey('platform')
    const publicKey = await importJWK(key.publicJwk, 'ES256', { extractable: true })
    const secrets = [JSON.stringify(key.publicJwk), await exportSPKI(publicKey as CryptoKey), key.publicJwk.x!]
    for (const secret of secrets) {
      const hs = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: key.kid }).sign(new TextEncoder().encode(secret))
      await assert.rejects(h.issuer.tokens.verify(hs), isInvalidToken)
    }
  })

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = token.split('.')
    const tampered = `${header}.${encode({ ...claims(), club: 'go' })}.${signature}`
    await assert.rejects(h.issuer.tokens.verify(tampered), isInvalidToken)
    const widened = `${header}.${encode({ ...claims(), exp: claims().exp! + 86_400 })}.${signature}`
    await assert.rejects(h.issuer.tokens.verify(widened), isInvalidToken)
  })

  it('refuses a token signed by a key that is not a platform key', async () => {
    const clubKey = await h.keys.activeKey('club:chess')
    const byClubKey = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: clubKey.kid }).sign(clubKey.privateKey)
    await assert.rejects(h.issuer.tokens.verify(byClubKey), isInvalidToken)
    const stranger = await generateKeyPair('ES256')
    const byStranger = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'nope' }).sign(stranger.privateKey)
    await assert.rejects(h.issuer.tokens.verify(byStranger), isInvalidToken)
    const noKid = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' }).sign(stranger.privateKey)
    await assert.rejects(h.issuer.tokens.verify(noKid), isInvalidToken)
  })

  it('refuses a token of another issuer sharing the storage (other iss and aud)', async () => {
    const other = createCoreIssuer({
      storage: h.storage,
      masterKey: MASTER_KEY,
      clock: h.clock,
      urls: {
        base: 'https://api.example',
        auth: 'https://auth.example',
        public: 'https://api.example',
        shareHost: 'example',
        legacyBase: 'https://api.example',
      },
    })
    const foreign = (await tokenFor(other, client)).access_token
    await assert.rejects(h.issuer.tokens.verify(foreign), isInvalidToken)
    assert.equal((await other.tokens.verify(foreign)).club, 'chess')
  })

  for (const [what, change] of [
    ['another issuer', { iss: 'https://evil.example/oauth' }],
    ['another audience', { aud: 'https://evil.example' }],
    ['no club claim', { club: undefined }],
    ["a club claim that is not the client's club", { club: 'go' }],
    ['no scope claim', { scope: undefined }],
    ['a scope claim that is not a string', { scope: ['svc:openapi:clubs:read'] }],
    ['no jti', { jti: undefined }],
    ['no sub', { sub: undefined }],
    ['an unknown client', { sub: 'cc_ghost' }],
    ['no exp', { exp: undefined }],
    ['no iat', { iat: undefined }],
    ['no secret binding', { sgen: undefined }],
    ['the secret binding of another client', { sgen: 'AAAAAAAAAAAAAAAA' }],
  ] as const) {
    it(`refuses a platform-signed token with ${what}`, async () => {
      await assert.rejects(h.issuer.tokens.verify(await forge({ ...claims(), ...change })), isInvalidToken)
    })
  }

  it('refuses a platform-signed token of another typ', async () => {
    await assert.rejects(h.issuer.tokens.verify(await forge(claims(), { typ: 'JWT' })), isInvalidToken)
  })

  it('never grants scopes the client does not hold, whatever the token says', async () => {
    const widened = await forge({ ...claims(), scope: 'svc:openapi:clubs:read svc:openapi:issuance:write svc:openapi:bogus' })
    assert.deepStrictEqual((await h.issuer.tokens.verify(widened)).scopes, ['clubs:read'])
  })

  for (const garbage of ['', 'abc', 'a.b.c', '....', `${'x'.repeat(50)}.${'y'.repeat(50)}.${'z'.repeat(50)}`]) {
    it(`refuses the malformed token ${JSON.stringify(garbage.slice(0, 12))} as invalid-token`, async () => {
      await assert.rejects(h.issuer.tokens.verify(garbage), isInvalidToken)
    })
  }

  it('a platform key rotation keeps earlier tokens verifiable', async () => {
    await h.keys.rotate('platform')
    assert.equal((await h.issuer.tokens.verify(token)).club, 'chess')
    const fresh = (await tokenFor(h.issuer, client)).access_token
    assert.notEqual(decodeProtectedHeader(fresh).kid, decodeProtectedHeader(token).kid)
    assert.equal((await h.issuer.tokens.verify(fresh)).club, 'chess')
  })

  it('a verifier with another master key still verifies (public keys are not sealed)', async () => {
    const keys = createKeyStore({ storage: h.storage, masterKey: new Uint8Array(32).fill(9), clock: h.clock })
    const other = createCoreIssuer({ storage: h.storage, keys, clock: h.clock, urls: h.issuer.config.urls })
    assert.equal((await other.tokens.verify(token)).club, 'chess')
    assert.equal(decodeJwt(token).iat, TEST_EPOCH / 1000)
  })
})
