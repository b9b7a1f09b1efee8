/**
 * Who has it (docs/decisions/0047-claims-and-expiry.md): a wallet taking the credential, by the OpenWallet Foundation's
 * OID4VCI client (@openid4vc/openid4vci) or the Learner Credential Wallet's libraries
 * (test/support/lcw-wallet.ts), is recorded as a claim: `issuance.claimed` the first time only,
 * `claimedAt` and `claims[]` on the detail, and the list's `claimed` filter. A refused take records nothing.
 *
 * @see docs/decisions/0047-claims-and-expiry.md
 */
import assert from 'node:assert/strict'
import { createHash, getRandomValues } from 'node:crypto'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { Openid4vciClient } from '@openid4vc/openid4vci'
import { clientAuthenticationAnonymous } from '@openid4vc/oauth2'
import { createDataIntegritySigner } from '../../../adapters/node/data-integrity-signer.ts'
import { createPresentationVerifier } from '../../../adapters/node/presentation-verifier.ts'
import { deepLinkFromRequestPage, didAuthentication, legacyRequestParams, mintProfile, postPresentation } from '../../support/lcw-wallet.ts'
import { openWalletHarness, walletLinkOf, type WalletHarness } from '../../support/wallet-harness.ts'

let h: WalletHarness
let wallet: Openid4vciClient

beforeEach(async () => {
  h = await openWalletHarness({ presentationVerifier: createPresentationVerifier(), dataIntegritySigner: createDataIntegritySigner() })
  wallet = new Openid4vciClient({
    callbacks: {
      fetch: h.fetch,
      hash: (data, algorithm) => new Uint8Array(createHash(algorithm.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: (length) => getRandomValues(new Uint8Array(length)),
      signJwt: () => {
        throw new Error('the wallet signs nothing in this flow')
      },
      clientAuthentication: clientAuthenticationAnonymous(),
    },
  })
})
afterEach(() => h.close())

/** A wallet scans the share page's QR code and takes the credential in this configuration. */
async function takeByOid4vci(shareUrl: string, configuration: string): Promise<void> {
  const offer = await wallet.resolveCredentialOffer(walletLinkOf(await (await h.fetch(shareUrl)).text()))
  const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
  const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })
  await wallet.retrieveCredentials({ issuerMetadata, accessToken: accessTokenResponse.access_token, credentialConfigurationId: configuration })
}

/** The Learner Credential Wallet: the share page's button, the request page, its DID Authentication. */
async function takeByLcw(shareUrl: string): Promise<Response> {
  const page = await (await h.fetch(shareUrl)).text()
  const href = /<a class="button button--lcw" href="([^"]*)">/.exec(page)![1]!.replace(/&amp;/g, '&')
  const redirect = await h.fetch(href, { redirect: 'manual' })
  const params = legacyRequestParams(deepLinkFromRequestPage(redirect.headers.get('location')!))
  return postPresentation(h.fetch as typeof fetch, params, await didAuthentication(await mintProfile(), params.challenge!))
}

const claimedEvents = async () => (await h.issuer.events.list('chess', { limit: '100' })).data.filter((event) => event.type === 'issuance.claimed')
const ids = (page: { data: { id: number }[] }) => page.data.map((item) => item.id)

describe('claims: a wallet taking the credential', () => {
  it('the OID4VCI wallet taking it twice: one issuance.claimed, claimedAt the first time, both claims listed', async () => {
    const taken = await h.issueOne()
    const untaken = await h.issueOne()
    const first = h.clock.now()
    await takeByOid4vci(taken.shareUrl, 'OpenBadgeCredential_jwt_vc_json')
    h.clock.advance(60_000)
    await takeByOid4vci(taken.shareUrl, 'OpenBadgeCredential_ldp_vc')

    const detail = await h.issuer.issuances.read('chess', taken.issuanceId)
    assert.equal(detail.claimedAt, new Date(first).toISOString())
    assert.deepEqual(detail.claims, [
      { via: 'oid4vci', format: 'jwt_vc_json', at: new Date(first).toISOString() },
      { via: 'oid4vci', format: 'ldp_vc', at: new Date(first + 60_000).toISOString() },
    ])
    const events = await claimedEvents()
    assert.deepEqual(
      events.map((event) => event.subject),
      [{ type: 'issuance', id: String(taken.issuanceId) }],
    )
    const other = await h.issuer.issuances.read('chess', untaken.issuanceId)
    assert.equal(other.claimedAt, null)
    assert.deepEqual(other.claims, [])

    assert.deepEqual(ids(await h.issuer.issuances.list('chess', { claimed: 'true' })), [taken.issuanceId])
    assert.deepEqual(ids(await h.issuer.issuances.list('chess', { claimed: 'false' })), [untaken.issuanceId])
  })

  it('the Learner Credential Wallet completing the exchange is a claim via lcw in ldp_vc, with its event', async () => {
    const issued = await h.issueOne()
    await h.issuer.worker.drain()
    const response = await takeByLcw(issued.shareUrl)
    assert.equal(response.status, 200, await response.clone().text())
    const detail = await h.issuer.issuances.read('chess', issued.issuanceId)
    assert.deepEqual(
      detail.claims.map(({ via, format }) => ({ via, format })),
      [{ via: 'lcw', format: 'ldp_vc' }],
    )
    assert.equal((await claimedEvents()).length, 1)
  })

  it('a refused take (revoked after the token was granted) records no claim and no event', async () => {
    const issued = await h.issueOne()
    const offer = await wallet.resolveCredentialOffer(walletLinkOf(await (await h.fetch(issued.shareUrl)).text()))
    const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer)
    const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata })
    await h.issuer.issuances.revoke('chess', issued.issuanceId)
    await assert.rejects(
      wallet.retrieveCredentials({
        issuerMetadata,
        accessToken: accessTokenResponse.access_token,
        credentialConfigurationId: 'OpenBadgeCredential_jwt_vc_json',
      }),
    )
    assert.deepEqual((await h.issuer.issuances.read('chess', issued.issuanceId)).claims, [])
    assert.deepEqual(await claimedEvents(), [])
  })
})
