/**
 * A wallet takes a credential from the share page with OpenID for Verifiable Credential Issuance 1.0
 * (pre-authorized code flow). The wallet is the OpenWallet Foundation's client (@openid4vc/openid4vci,
 * used by Credo), not code of this project; it talks to the issuer's fetch handler as it would over the
 * network, on an https deployment.
 */
import assert from 'node:assert/strict'
import { createHash, getRandomValues } from 'node:crypto'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { SignJWT, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify } from 'jose'
import { Openid4vciClient } from '@openid4vc/openid4vci'
import { Oauth2ClientErrorResponseError, clientAuthenticationAnonymous } from '@openid4vc/oauth2'
import { CREDENTIAL_ISSUER, HTTPS_ORIGIN, openWalletHarness, walletLinkOf, type WalletHarness } from '../../support/wallet-harness.ts'
import { clientCredentialsGrant } from '../../support/tokens.ts'
import type { Json } from '../../support/json.ts'

const CONFIGURATION_ID = 'OpenBadgeCredential_jwt_vc_json'

let harness: WalletHarness
let wallet: Openid4vciClient

beforeEach(async () => {
  harness = await openWalletHarness()
  wallet = new Openid4vciClient({
    callbacks: {
      fetch: harness.fetch,
      hash: (data, algorithm) => new Uint8Array(createHash(algorithm.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => getRandomValues(new Uint8Array(length)),
      signJwt: () => {
        throw new Error('the wallet signs nothing in this flow: no proofs asked, no DPoP offered')
      },
      clientAuthentication: clientAuthenticationAnonymous(),
    },
  })
})
afterEach(async () => {
  await harness.close()
})

async function text(url: string): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await harness.fetch(url)
  return { status: response.status, headers: response.headers, body: await response.text() }
}

/** What a phone does with the QR code: read the offer link from the real share page. */
async function offerLinkFromSharePage(shareUrl: string): Promise<string> {
  const page = await text(shareUrl)
  assert.equal(page.status, 200)
  return walletLinkOf(page.body)
}

/** Offer, metadata and a token, as a wallet gets them from a scanned link. */
async function redeem(link: string) {
  const offer = await wallet.resolveCredentialOffer(link)
  const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
  const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })
  return { offer, issuerMetadata, accessToken: accessTokenResponse.access_token }
}

/** The OAuth error a token request was refused with. */
async function refusal(attempt: Promise<unknown>): Promise<{ error: string; status: number }> {
  try {
    await attempt
  } catch (error) {
    assert.ok(error instanceof Oauth2ClientErrorResponseError, `an OAuth error response, got ${error}`)
    return { error: error.errorResponse.error, status: error.response.status }
  }
  assert.fail('the token request was accepted')
}

describe('OID4VCI pre-authorized code flow, played by the @openid4vc/openid4vci wallet', () => {
  it('takes the credential from the share page: the JWT is byte-identical to jwtUrl and verifies against the DID document', async () => {
    const credential = await harness.issueOne()
    const link = await offerLinkFromSharePage(credential.shareUrl)
    assert.equal(link, `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${CREDENTIAL_ISSUER}/credential-offers/${credential.id}`)}`)

    const offer = await wallet.resolveCredentialOffer(link)
    assert.equal(offer.credential_issuer, CREDENTIAL_ISSUER)
    assert.deepEqual(offer.credential_configuration_ids, [CONFIGURATION_ID])
    const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
    assert.equal(issuerMetadata.originalDraftVersion, 'V1', 'read as OID4VCI 1.0 metadata')
    assert.equal(issuerMetadata.authorizationServers[0]?.issuer, CREDENTIAL_ISSUER, 'the credential issuer is its own authorization server')

    const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })
    assert.equal(accessTokenResponse.token_type, 'Bearer')
    const { c_nonce } = await wallet.requestNonce({ issuerMetadata })
    assert.ok(c_nonce.length > 20, 'an unpredictable nonce')

    const { credentialResponse } = await wallet.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: offer.credential_configuration_ids[0]!,
    })
    const received = (credentialResponse.credentials as { credential: string }[])[0]!.credential
    const stored = await text(credential.jwtUrl)
    assert.equal(stored.status, 200)
    assert.equal(received, stored.body, 'the same bytes as jwtUrl: the credential is never signed again')

    // Verified as a verifier would: the key the header names, from the club's did:web document.
    const { kid } = decodeProtectedHeader(received)
    const didDocument = JSON.parse((await text(`${CREDENTIAL_ISSUER}/did.json`)).body) as {
      id: string
      verificationMethod: { id: string; publicKeyJwk: Record<string, string> }[]
    }
    const method = didDocument.verificationMethod.find((candidate) => candidate.id === kid)
    assert.ok(method, `the DID document lists ${kid}`)
    const { payload } = await jwtVerify(received, await importJWK(method.publicKeyJwk, 'ES256'), { currentDate: new Date(harness.clock.now()) })
    assert.equal(payload.iss, didDocument.id, 'issued by the club did:web, beside the credential issuer URL')
    assert.equal((payload.vc as { issuer: { url: string } }).issuer.url, CREDENTIAL_ISSUER, "the issuer profile's url is the credential issuer identifier")
  })

  it('a proof sent anyway is ignored, not refused: the credential binds no holder key', async () => {
    const credential = await harness.issueOne()
    const { issuerMetadata, accessToken } = await redeem(await offerLinkFromSharePage(credential.shareUrl))
    const { c_nonce } = await wallet.requestNonce({ issuerMetadata })
    const holder = await generateKeyPair('ES256')
    const proof = await new SignJWT({ aud: CREDENTIAL_ISSUER, nonce: c_nonce })
      .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: await exportJWK(holder.publicKey) })
      .setIssuedAt()
      .sign(holder.privateKey)
    const { credentialResponse } = await wallet.retrieveCredentials({
      issuerMetadata,
      accessToken,
      credentialConfigurationId: CONFIGURATION_ID,
      proofs: { jwt: [proof] },
    })
    assert.equal((credentialResponse.credentials as { credential: string }[])[0]!.credential, (await text(credential.jwtUrl)).body)
  })

  it('refuses the same pre-authorized code a second time with invalid_grant', async () => {
    const credential = await harness.issueOne()
    const { offer, issuerMetadata } = await redeem(await offerLinkFromSharePage(credential.shareUrl))
    assert.deepEqual(await refusal(wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })), {
      error: 'invalid_grant',
      status: 400,
    })
    // A fresh fetch of the same offer link mints a fresh code, which works once.
    await redeem(await offerLinkFromSharePage(credential.shareUrl))
  })

  it('refuses an expired pre-authorized code (ten minutes, by the issuer clock) with invalid_grant', async () => {
    const credential = await harness.issueOne()
    const link = await offerLinkFromSharePage(credential.shareUrl)
    const offer = await wallet.resolveCredentialOffer(link)
    const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
    harness.clock.advance(10 * 60 * 1000)
    assert.deepEqual(await refusal(wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })), {
      error: 'invalid_grant',
      status: 400,
    })
  })

  it('a code one second before its expiry still works', async () => {
    const credential = await harness.issueOne()
    const offer = await wallet.resolveCredentialOffer(await offerLinkFromSharePage(credential.shareUrl))
    const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
    harness.clock.advance(10 * 60 * 1000 - 1000)
    await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })
  })

  it("refuses a revoked credential's offer with invalid_grant, and the share page no longer offers it", async () => {
    const credential = await harness.issueOne()
    const link = await offerLinkFromSharePage(credential.shareUrl)
    await harness.issuer.issuances.revoke('chess', credential.issuanceId)
    const page = await text(credential.shareUrl)
    assert.ok(!page.body.includes('openid-credential-offer:'), 'no wallet link on a revoked credential')

    // A link kept from before (a mail, a screenshot) still resolves, and the token endpoint refuses it.
    const offer = await wallet.resolveCredentialOffer(link)
    const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
    assert.deepEqual(await refusal(wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })), {
      error: 'invalid_grant',
      status: 400,
    })
  })

  it('refuses at the credential endpoint a credential revoked after its token was granted (credential_request_denied)', async () => {
    const credential = await harness.issueOne()
    const { accessToken } = await redeem(await offerLinkFromSharePage(credential.shareUrl))
    await harness.issuer.issuances.revoke('chess', credential.issuanceId)
    const response = await credentialRequest(accessToken, { credential_configuration_id: CONFIGURATION_ID })
    assert.equal(response.status, 400)
    assert.equal(response.body.error, 'credential_request_denied')
  })

  it('an expired credential can still be taken into a wallet (it is the recipient’s record; its verdict says expired)', async () => {
    const credential = await harness.issueOne({ expiresAt: new Date(harness.clock.now() + 24 * 60 * 60 * 1000).toISOString() })
    harness.clock.advance(2 * 24 * 60 * 60 * 1000)
    const { accessToken } = await redeem(await offerLinkFromSharePage(credential.shareUrl))
    const response = await credentialRequest(accessToken, { credential_configuration_id: CONFIGURATION_ID })
    assert.equal(response.status, 200)
  })
})

async function credentialRequest(accessToken: string | null, body: unknown, club = 'chess') {
  const response = await harness.fetch(`${HTTPS_ORIGIN}/open-badges/v3/issuers/${club}/credential`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accessToken === null ? {} : { authorization: `Bearer ${accessToken}` }) },
    body: JSON.stringify(body),
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as { error?: string; credentials?: { credential: string }[] } }
}

async function tokenRequest(form: Record<string, string>, club = 'chess') {
  const response = await harness.fetch(`${HTTPS_ORIGIN}/open-badges/v3/issuers/${club}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> }
}

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code'

describe('OID4VCI metadata', () => {
  it('serves the credential issuer metadata at the OID4VCI well-known address (inserted before the path)', async () => {
    const response = await harness.fetch(`${HTTPS_ORIGIN}/.well-known/openid-credential-issuer/open-badges/v3/issuers/chess`)
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
    assert.equal(response.headers.get('access-control-allow-origin'), '*')
    const metadata = (await response.json()) as Json
    assert.equal(metadata.credential_issuer, CREDENTIAL_ISSUER)
    assert.equal(metadata.credential_endpoint, `${CREDENTIAL_ISSUER}/credential`)
    assert.equal(metadata.nonce_endpoint, `${CREDENTIAL_ISSUER}/nonce`)
    assert.equal(metadata.authorization_servers, undefined, 'its own authorization server')
    assert.deepEqual(metadata.display, [
      { name: '체스 클럽', locale: 'ko' },
      { name: '체스 클럽', locale: 'en' },
    ])
    assert.deepEqual(Object.keys(metadata.credential_configurations_supported), [CONFIGURATION_ID, 'OpenBadgeCredential_ldp_vc'])
    const configuration = metadata.credential_configurations_supported[CONFIGURATION_ID]
    assert.equal(configuration.format, 'jwt_vc_json')
    assert.deepEqual(configuration.credential_definition, { type: ['VerifiableCredential', 'OpenBadgeCredential'] })
    assert.deepEqual(configuration.credential_signing_alg_values_supported, ['ES256'])
    assert.equal('cryptographic_binding_methods_supported' in configuration, false, 'no holder binding is promised')
    assert.equal('proof_types_supported' in configuration, false, 'no proof is asked for')
    assert.deepEqual(
      configuration.credential_metadata.display.map((entry: { locale: string }) => entry.locale),
      ['ko', 'en'],
    )
    for (const claim of configuration.credential_metadata.claims) assert.ok(Array.isArray(claim.path) && claim.path.length > 0)
  })

  it('serves the authorization server metadata (RFC 8414) of the same identifier', async () => {
    const response = await harness.fetch(`${HTTPS_ORIGIN}/.well-known/oauth-authorization-server/open-badges/v3/issuers/chess`)
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), {
      issuer: CREDENTIAL_ISSUER,
      token_endpoint: `${CREDENTIAL_ISSUER}/token`,
      grant_types_supported: [PRE_AUTHORIZED],
      token_endpoint_auth_methods_supported: ['none'],
      'pre-authorized_grant_anonymous_access_supported': true,
    })
  })

  it('an unknown club has no metadata (404, readable from any origin)', async () => {
    const response = await harness.fetch(`${HTTPS_ORIGIN}/.well-known/openid-credential-issuer/open-badges/v3/issuers/nosuchclub`)
    assert.equal(response.status, 404)
    assert.equal(response.headers.get('access-control-allow-origin'), '*')
  })

  it('answers the CORS preflight of the credential endpoint for a wallet in a browser', async () => {
    const response = await harness.fetch(`${CREDENTIAL_ISSUER}/credential`, {
      method: 'OPTIONS',
      headers: { origin: 'https://wallet.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    })
    assert.equal(response.status, 204)
    assert.equal(response.headers.get('access-control-allow-origin'), '*')
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/)
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Authorization/)
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Content-Type/)
  })

  it('serves a fresh code on each offer fetch, never cached; an unknown credential has no offer', async () => {
    const credential = await harness.issueOne()
    const uri = `${CREDENTIAL_ISSUER}/credential-offers/${credential.id}`
    const [first, second] = [await harness.fetch(uri), await harness.fetch(uri)]
    assert.equal(first.headers.get('cache-control'), 'no-store')
    const code = async (response: Response) => ((await response.json()) as Json).grants[PRE_AUTHORIZED]['pre-authorized_code'] as string
    assert.notEqual(await code(first), await code(second))
    assert.equal((await harness.fetch(`${CREDENTIAL_ISSUER}/credential-offers/00000000-0000-4000-8000-000000000000`)).status, 404)
    assert.equal((await harness.fetch(`${HTTPS_ORIGIN}/open-badges/v3/issuers/other/credential-offers/${credential.id}`)).status, 404, 'not under another club')
  })
})

describe('OID4VCI errors', () => {
  it('the token endpoint answers RFC 6749 errors, readable from any origin', async () => {
    const credential = await harness.issueOne()
    const offer = (await (await harness.fetch(`${CREDENTIAL_ISSUER}/credential-offers/${credential.id}`)).json()) as Json
    const code = offer.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string

    const cases: [Record<string, string>, string][] = [
      [{}, 'invalid_request'],
      [{ grant_type: 'client_credentials' }, 'unsupported_grant_type'],
      [{ grant_type: PRE_AUTHORIZED }, 'invalid_request'],
      [{ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code, tx_code: '1234' }, 'invalid_request'],
      [{ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code, resource: 'https://elsewhere.example' }, 'invalid_target'],
      [{ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': 'not-a-code' }, 'invalid_grant'],
      [{ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': `${code.slice(0, -2)}AA` }, 'invalid_grant'],
    ]
    for (const [form, error] of cases) {
      const response = await tokenRequest(form)
      assert.equal(response.status, 400, JSON.stringify(form))
      assert.equal(response.body.error, error, JSON.stringify(form))
      assert.equal(response.headers.get('cache-control'), 'no-store')
      assert.equal(response.headers.get('access-control-allow-origin'), '*')
    }
    // A code is its club's: the chess code is refused by another club's token endpoint.
    await harness.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    assert.equal((await tokenRequest({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code }, 'go')).body.error, 'invalid_grant')
    // None of the refusals used the code up.
    const granted = await tokenRequest({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code, resource: CREDENTIAL_ISSUER })
    assert.equal(granted.status, 200, JSON.stringify(granted.body))
    assert.deepEqual(Object.keys(granted.body).sort(), ['access_token', 'expires_in', 'token_type'])
  })

  it('the credential endpoint answers invalid_token (401, WWW-Authenticate) and the OID4VCI request errors', async () => {
    const credential = await harness.issueOne()
    const { accessToken } = await redeem(await offerLinkFromSharePage(credential.shareUrl))

    const missing = await credentialRequest(null, { credential_configuration_id: CONFIGURATION_ID })
    assert.equal(missing.status, 401)
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer')
    // The club API's bearer reading (adapters/http/auth.ts): the scheme in any case, spaces before the
    // token; a header of another scheme is a token that does not hold, not a missing one.
    const request = (authorization: string) =>
      harness.fetch(`${CREDENTIAL_ISSUER}/credential`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ credential_configuration_id: CONFIGURATION_ID }),
      })
    assert.equal((await request(`bearer  ${accessToken}`)).status, 200)
    const otherScheme = await request(`Basic ${accessToken}`)
    assert.equal(otherScheme.status, 401)
    assert.match(otherScheme.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/)
    const forged = await credentialRequest(`${accessToken.slice(0, -2)}AA`, { credential_configuration_id: CONFIGURATION_ID })
    assert.equal(forged.status, 401)
    assert.match(forged.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/)
    assert.equal(forged.body.error, 'invalid_token')
    // The token is bound to its club's credential issuer.
    await harness.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    assert.equal((await credentialRequest(accessToken, { credential_configuration_id: CONFIGURATION_ID }, 'go')).status, 401)

    const cases: [unknown, string][] = [
      [[], 'invalid_credential_request'],
      [{}, 'invalid_credential_request'],
      [{ format: 'jwt_vc_json', credential_definition: { type: ['VerifiableCredential'] } }, 'invalid_credential_request'],
      [{ credential_configuration_id: 'UniversityDegree' }, 'unknown_credential_configuration'],
      [{ credential_identifier: 'x' }, 'unknown_credential_identifier'],
      [{ credential_configuration_id: CONFIGURATION_ID, credential_response_encryption: { jwk: {}, enc: 'A128GCM' } }, 'invalid_encryption_parameters'],
    ]
    for (const [body, error] of cases) {
      const response = await credentialRequest(accessToken, body)
      assert.equal(response.status, 400, JSON.stringify(body))
      assert.equal(response.body.error, error, JSON.stringify(body))
      assert.equal(response.headers.get('access-control-allow-origin'), '*')
    }
    const notJson = await harness.fetch(`${CREDENTIAL_ISSUER}/credential`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` }, body: 'x' })
    assert.equal(notJson.status, 400)
    assert.equal(((await notJson.json()) as { error: string }).error, 'invalid_credential_request')

    // An access token expires after five minutes.
    harness.clock.advance(5 * 60 * 1000)
    assert.equal((await credentialRequest(accessToken, { credential_configuration_id: CONFIGURATION_ID })).status, 401)
  })

  it('a code, a nonce and an access token are never taken for one another', async () => {
    const credential = await harness.issueOne()
    const offer = (await (await harness.fetch(`${CREDENTIAL_ISSUER}/credential-offers/${credential.id}`)).json()) as Json
    const code = offer.grants[PRE_AUTHORIZED]['pre-authorized_code'] as string
    const { c_nonce } = (await (await harness.fetch(`${CREDENTIAL_ISSUER}/nonce`, { method: 'POST' })).json()) as { c_nonce: string }
    for (const bearer of [code, c_nonce]) {
      assert.equal((await credentialRequest(bearer, { credential_configuration_id: CONFIGURATION_ID })).status, 401)
    }
    const granted = await tokenRequest({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code })
    const accessToken = granted.body.access_token as string
    const fresh = ((await (await harness.fetch(`${CREDENTIAL_ISSUER}/credential-offers/${credential.id}`)).json()) as Json).grants[PRE_AUTHORIZED]
    for (const notACode of [accessToken, c_nonce]) {
      assert.equal((await tokenRequest({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': notACode })).body.error, 'invalid_grant')
    }
    assert.equal((await tokenRequest({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': fresh['pre-authorized_code'] })).status, 200)
  })

  it('an API access token of the club is no wallet access token, and a wallet token is no API token', async () => {
    const credential = await harness.issueOne()
    const client = await harness.issuer.clients.create({ club: 'chess' })
    const api = await harness.fetch(`${HTTPS_ORIGIN}/oauth/token`, clientCredentialsGrant(client))
    const apiToken = ((await api.json()) as { access_token: string }).access_token
    assert.equal((await credentialRequest(apiToken, { credential_configuration_id: CONFIGURATION_ID })).status, 401)

    const { accessToken } = await redeem(await offerLinkFromSharePage(credential.shareUrl))
    const read = await harness.fetch(`${HTTPS_ORIGIN}/v2/clubs/chess/issuances/${credential.issuanceId}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    assert.equal(read.status, 401)
  })
})
