/**
 * GET /v2/clubs/{club}/ (docs/api.md §4.2) and every bearer check in front of it (docs/decisions/0004-authentication.md § Bearer checks),
 * through the real server process.
 */
import assert from 'node:assert/strict'
import { createPublicKey } from 'node:crypto'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWK } from 'jose'
import { SCOPE_NAMES } from '../../core/scopes.ts'
import { accessToken, basic, tokenRequest } from '../support/tokens.ts'
import {
  adminClubAndClient,
  cli,
  clubRoot,
  demoClientFrom,
  openAdmin,
  removeDataDir,
  startClockedServer,
  startServer,
  type ClockedServerProcess,
  type ServerProcess,
} from '../support/server.ts'
import { assertInvalidToken, assertProblem } from '../support/assertions.ts'

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('GET /v2/clubs/{club}/', () => {
  let server: ServerProcess
  let alpha: { client_id: string; client_secret: string }
  let alphaToken: string
  let admin: ReturnType<typeof openAdmin>

  before(async () => {
    server = await startServer()
    admin = openAdmin(server.dataDir)
    alpha = await adminClubAndClient(admin, 'alpha')
    await admin.clubs.create({ domain: 'beta', name: 'Beta Club' })
    await admin.clubs.create({ domain: 'closed', name: 'Closed Club', canIssue: false })
    alphaToken = await accessToken(server, alpha)
  })
  after(async () => {
    await admin.close()
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
  })

  it("answers { data: { domain, name, canIssue, grantedOperations } } for the token's own club", async () => {
    const response = await clubRoot(server, 'alpha', alphaToken)
    assert.equal(response.status, 200, response.text)
    assert.match(response.headers['content-type'] ?? '', /^application\/json\b/)
    assert.deepStrictEqual(response.json, {
      data: { domain: 'alpha', name: 'alpha club', canIssue: true, grantedOperations: [...SCOPE_NAMES] },
    })
  })

  it('shows canIssue false for a club created with --no-issue', async () => {
    const client = await admin.clients.create({ club: 'closed', scopes: ['clubs:read'] })
    const response = await clubRoot(server, 'closed', await accessToken(server, client))
    assert.deepStrictEqual(response.json, {
      data: { domain: 'closed', name: 'Closed Club', canIssue: false, grantedOperations: ['clubs:read'] },
    })
  })

  it('no Authorization header is 401 invalid-token with WWW-Authenticate: Bearer error="invalid_token"', async () => {
    assertInvalidToken(await clubRoot(server, 'alpha', null))
  })

  for (const [what, authorization] of [
    ['HTTP Basic', () => basic(alpha.client_id, alpha.client_secret)],
    ['a bare token without the Bearer scheme', () => alphaToken],
    ['Bearer with an empty token', () => 'Bearer '],
    ['Bearer with garbage', () => 'Bearer not-a-jwt'],
  ] as const) {
    it(`${what} is 401 invalid-token`, async () => {
      assertInvalidToken(await server.http('/v2/clubs/alpha/', { headers: { authorization: authorization() } }))
    })
  }

  it('the Bearer scheme name is case-insensitive', async () => {
    const response = await server.http('/v2/clubs/alpha/', { headers: { authorization: `bearer ${alphaToken}` } })
    assert.equal(response.status, 200, response.text)
  })

  it('a token of club A on club B is 403 club-forbidden, also when club B does not exist', async () => {
    for (const club of ['beta', 'no-such-club']) {
      const response = await clubRoot(server, club, alphaToken)
      assertProblem(response, 403, 'club-forbidden')
    }
  })

  it('a token without clubs:read is 403 insufficient-scope with error="insufficient_scope" and the scope', async () => {
    const client = await admin.clients.create({ club: 'alpha', scopes: ['issuance:read', 'events:read'] })
    const response = await clubRoot(server, 'alpha', await accessToken(server, client))
    assertProblem(response, 403, 'insufficient-scope')
    const challenge = response.headers['www-authenticate'] ?? ''
    assert.match(challenge, /^Bearer\b/)
    assert.match(challenge, /error="insufficient_scope"/)
    assert.match(challenge, /scope="svc:openapi:clubs:read"/)
  })

  it('a token narrowed by its scope parameter is held to it', async () => {
    const narrowed = await accessToken(server, alpha, 'svc:openapi:issuance:read')
    assertProblem(await clubRoot(server, 'alpha', narrowed), 403, 'insufficient-scope')
  })

  it('an alg: none token is 401', async () => {
    const [, payload] = alphaToken.split('.')
    const header = { alg: 'none', typ: 'at+jwt', kid: decodeProtectedHeader(alphaToken).kid }
    assertInvalidToken(await clubRoot(server, 'alpha', `${b64url(header)}.${payload}.`))
  })

  it('an HS256 token keyed with the platform public key is 401', async () => {
    const db = new Database(join(server.dataDir, 'clubcred.db'), { readonly: true })
    let publicJwk: JWK
    try {
      const row = db.prepare("SELECT public_jwk FROM keys WHERE owner = 'platform' AND active = 1").get() as { public_jwk: string }
      publicJwk = JSON.parse(row.public_jwk) as JWK
    } finally {
      db.close()
    }
    const pem = createPublicKey({ key: publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string
    const kid = decodeProtectedHeader(alphaToken).kid!
    for (const secret of [JSON.stringify(publicJwk), pem]) {
      const forged = await new SignJWT(decodeJwt(alphaToken)).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid }).sign(new TextEncoder().encode(secret))
      assertInvalidToken(await clubRoot(server, 'alpha', forged))
    }
  })

  it('a token whose club claim was changed (signature kept) is 401, not 403', async () => {
    const [header, , signature] = alphaToken.split('.')
    const tampered = `${header}.${b64url({ ...decodeJwt(alphaToken), club: 'beta' })}.${signature}`
    assertInvalidToken(await clubRoot(server, 'beta', tampered))
    assertInvalidToken(await clubRoot(server, 'alpha', tampered))
  })

  it('the token of a deleted client is 401 at once', async () => {
    const client = await admin.clients.create({ club: 'alpha' })
    const token = await accessToken(server, client)
    assert.equal((await clubRoot(server, 'alpha', token)).status, 200)
    assert.deepStrictEqual(await cli(server.dataDir, 'client', 'delete', '--client', client.client_id), { deleted: true })
    assertInvalidToken(await clubRoot(server, 'alpha', token))
    assert.equal((await tokenRequest(server, client)).status, 401)
  })

  it('after client rotate the old secret is 401 invalid_client, the new one works, and earlier tokens are 401', async () => {
    const client = await admin.clients.create({ club: 'alpha' })
    const before = await accessToken(server, client)
    assert.equal((await clubRoot(server, 'alpha', before)).status, 200)

    const rotated = await cli(server.dataDir, 'client', 'rotate', '--client', client.client_id)
    assert.equal(rotated.client_id, client.client_id)
    assert.notEqual(rotated.client_secret, client.client_secret)

    const old = await tokenRequest(server, client)
    assert.equal(old.status, 401)
    assert.equal(old.json.error, 'invalid_client')
    assertInvalidToken(await clubRoot(server, 'alpha', before))
    const after = await accessToken(server, rotated)
    assert.equal((await clubRoot(server, 'alpha', after)).status, 200)
  })

  it("a rotation of a club's credential key does not touch access tokens", async () => {
    await admin.keys.rotate('alpha')
    assert.equal((await clubRoot(server, 'alpha', alphaToken)).status, 200)
  })

  describe('with a clock the test moves (startNodeServer({ clock }))', () => {
    let clocked: ClockedServerProcess
    let token: string

    before(async () => {
      clocked = await startClockedServer()
      const demo = demoClientFrom(clocked.stderr)
      assert.ok(demo, clocked.stderr)
      token = await accessToken(clocked, demo)
    })
    after(async () => {
      assert.equal(await clocked.stop(), 0, clocked.stderr)
      removeDataDir(clocked.dataDir)
    })

    it('a token is accepted 899 s after issue and refused at 901 s as invalid-token', async () => {
      const issuedAt = decodeJwt(token).iat! * 1000
      await clocked.set(issuedAt + 899_000)
      const accepted = await clubRoot(clocked, 'demo', token)
      assert.equal(accepted.status, 200, accepted.text)
      assert.equal(accepted.json.data.domain, 'demo')
      await clocked.set(issuedAt + 901_000)
      assertInvalidToken(await clubRoot(clocked, 'demo', token))
    })

    it('a token of another server (another platform key) is 401', async () => {
      assertInvalidToken(await clubRoot(server, 'demo', token))
      assertInvalidToken(await clubRoot(clocked, 'alpha', alphaToken))
    })
  })
})
