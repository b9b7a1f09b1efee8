/**
 * The JSON-LD form through OID4VCI (docs/api.md §11; docs/data-integrity.md): an `ldp_vc` configuration
 * beside `jwt_vc_json`, offered once the credential's Data Integrity proof is made, taken by the
 * OpenWallet Foundation's client (@openid4vc/openid4vci) and verified with Digital Bazaar's VC library
 * against the club's did:web document served by the issuer.
 */
import assert from 'node:assert/strict'
import { createHash, getRandomValues } from 'node:crypto'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { SignJWT, decodeJwt, exportJWK, generateKeyPair } from 'jose'
import { Openid4vciClient } from '@openid4vc/openid4vci'
import { clientAuthenticationAnonymous } from '@openid4vc/oauth2'
import { CREDENTIAL_ISSUER, HTTPS_ORIGIN, openWalletHarness, walletLinkOf, type WalletHarness } from '../../support/wallet-harness.ts'
import { verifyDataIntegrity } from '../../support/data-integrity-verifier.ts'
import type { RawResponse } from '../../support/api-harness.ts'
import { setStoredProof } from '../../support/stored-proof.ts'

const JWT_ID = 'OpenBadgeCredential_jwt_vc_json'
const LDP_ID = 'OpenBadgeCredential_ldp_vc'

let harness: WalletHarness
let wallet: Openid4vciClient

beforeEach(async () => {
  harness = await openWalletHarness({ proofs: true })
  wallet = new Openid4vciClient({
    callbacks: {
      fetch: harness.fetch,
      hash: (data, algorithm) => new Uint8Array(createHash(algorithm.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => getRandomValues(new Uint8Array(length)),
      signJwt: () => {
        throw new Error('the wallet signs nothing in this flow')
      },
      clientAuthentication: clientAuthenticationAnonymous(),
    },
  })
})
afterEach(() => harness.close())

/** A GET for the verifier: did:web resolves over http in the test verifier, the deployment is https. */
async function get(url: string): Promise<RawResponse> {
  const response = await harness.fetch(url.replace(/^http:/, 'https:'))
  const text = await response.text()
  const isJson = /json/.test(response.headers.get('content-type') ?? '')
  return { status: response.status, headers: response.headers, text, body: isJson && text ? JSON.parse(text) : null }
}

/** The share page's offer, its metadata and a token, as a wallet gets them from a scanned link. */
async function redeem(shareUrl: string) {
  const link = walletLinkOf(await (await harness.fetch(shareUrl)).text())
  const offer = await wallet.resolveCredentialOffer(link)
  const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
  const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })
  return { offer, issuerMetadata, accessToken: accessTokenResponse.access_token }
}

async function credentialRequest(accessToken: string, body: unknown) {
  const response = await harness.fetch(`${CREDENTIAL_ISSUER}/credential`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as { error?: string; error_description?: string; credentials?: { credential: unknown }[] } }
}

describe('the ldp_vc configuration', () => {
  it('is in the issuer metadata beside jwt_vc_json, as OID4VCI 1.0 Appendix A.1.2 describes it, and the wallet client reads it', async () => {
    const response = await harness.fetch(`${HTTPS_ORIGIN}/.well-known/openid-credential-issuer/open-badges/v3/issuers/chess`)
    const metadata = (await response.json()) as { credential_configurations_supported: Record<string, Record<string, unknown>> }
    const configuration = metadata.credential_configurations_supported[LDP_ID]!
    assert.equal(configuration.format, 'ldp_vc')
    assert.deepEqual(configuration.credential_definition, {
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
        'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
      ],
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
    })
    assert.deepEqual(configuration.credential_signing_alg_values_supported, ['eddsa-rdfc-2022'])
    assert.equal('cryptographic_binding_methods_supported' in configuration, false, 'no holder binding, as for the JWT')
    assert.equal('proof_types_supported' in configuration, false, 'no proof asked, as for the JWT')
    const read = await wallet.resolveIssuerMetadata(CREDENTIAL_ISSUER)
    assert.equal(read.credentialIssuer.credential_configurations_supported[LDP_ID]?.format, 'ldp_vc')
  })

  it('a wallet takes the JSON-LD form: the JWT credential with its proof, verified by Digital Bazaar’s VC library; a proof sent anyway is ignored', async () => {
    const credential = await harness.issueOne()
    const { offer, issuerMetadata, accessToken } = await redeem(credential.shareUrl)
    assert.deepEqual(offer.credential_configuration_ids, [JWT_ID, LDP_ID], 'both forms offered once the proof is made')

    const { credentialResponse } = await wallet.retrieveCredentials({ issuerMetadata, accessToken, credentialConfigurationId: LDP_ID })
    const received = (credentialResponse.credentials as { credential: Record<string, unknown> }[])[0]!.credential
    assert.equal(typeof received, 'object', 'a JSON-LD document, not a JWT string')
    const jwt = await (await harness.fetch(credential.jwtUrl)).text()
    const { proof, ...rest } = received
    assert.deepStrictEqual(rest, decodeJwt(jwt).vc, 'the credential of the JWT, member for member')
    assert.equal((proof as { cryptosuite: string }[])[0]!.cryptosuite, 'eddsa-rdfc-2022')
    const served = await harness.fetch(credential.jwtUrl, { headers: { accept: 'application/ld+json' } })
    assert.deepStrictEqual(await served.json(), received, 'the document the credential address serves')
    const result = await verifyDataIntegrity(received, get, { now: new Date(harness.clock.now()) })
    assert.equal(result.verified, true, JSON.stringify(result, null, 2))

    const holder = await generateKeyPair('ES256')
    const { c_nonce } = await wallet.requestNonce({ issuerMetadata })
    const holderProof = await new SignJWT({ aud: CREDENTIAL_ISSUER, nonce: c_nonce })
      .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: await exportJWK(holder.publicKey) })
      .setIssuedAt()
      .sign(holder.privateKey)
    const withProof = await credentialRequest(accessToken, { credential_configuration_id: LDP_ID, proofs: { jwt: [holderProof] } })
    assert.equal(withProof.status, 200)
    assert.deepStrictEqual(withProof.body.credentials![0]!.credential, received)
  })

  it('while the proof is being made, the offer names jwt_vc_json only and a request for ldp_vc is credential_request_denied; made, it is served', async () => {
    const credential = await harness.issueOne()
    setStoredProof(harness.dbFile, credential.id, null)
    const { offer, accessToken } = await redeem(credential.shareUrl)
    assert.deepEqual(offer.credential_configuration_ids, [JWT_ID])
    const pending = await credentialRequest(accessToken, { credential_configuration_id: LDP_ID })
    assert.equal(pending.status, 400)
    assert.equal(pending.body.error, 'credential_request_denied')
    assert.match(pending.body.error_description ?? '', /still being prepared/)
    assert.equal((await credentialRequest(accessToken, { credential_configuration_id: JWT_ID })).status, 200, 'the JWT meanwhile')

    await harness.issuer.worker.drain()
    const ready = await credentialRequest(accessToken, { credential_configuration_id: LDP_ID })
    assert.equal(ready.status, 200, 'the same token, once the proof is made')
    assert.equal((await verifyDataIntegrity(ready.body.credentials![0]!.credential, get, { now: new Date(harness.clock.now()) })).verified, true)
  })

  it('a credential signed before proofs existed is offered as jwt_vc_json only; ldp_vc is credential_request_denied', async () => {
    const credential = await harness.issueOne()
    setStoredProof(harness.dbFile, credential.id, '')
    const { offer, accessToken } = await redeem(credential.shareUrl)
    assert.deepEqual(offer.credential_configuration_ids, [JWT_ID])
    const refused = await credentialRequest(accessToken, { credential_configuration_id: LDP_ID })
    assert.equal(refused.status, 400)
    assert.equal(refused.body.error, 'credential_request_denied')
    assert.match(refused.body.error_description ?? '', /before JSON-LD forms existed/)
  })

  it('a credential revoked after its token was granted is refused in the JSON-LD form too', async () => {
    const credential = await harness.issueOne()
    const { accessToken } = await redeem(credential.shareUrl)
    await harness.issuer.issuances.revoke('chess', credential.issuanceId)
    const refused = await credentialRequest(accessToken, { credential_configuration_id: LDP_ID })
    assert.equal(refused.status, 400)
    assert.equal(refused.body.error, 'credential_request_denied')
  })
})
