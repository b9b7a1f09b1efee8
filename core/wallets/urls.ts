/*
 * The addresses of a club as an OID4VCI credential issuer (docs/decisions/0035-wallets-oid4vci.md).
 * Its identifier is the issuer profile's `url` inside every credential of the club, beside its did:web
 * document: `{public_url}/open-badges/v3/issuers/{club}` ↔ `did:web:{host}:open-badges:v3:issuers:{club}`.
 */
import { PUBLIC_PATHS, fillPath } from '../public-paths.ts'
import { issuerUrl } from '../credentials/urls.ts'
import type { IssuerConfig } from '../config.ts'

/** The credential issuer identifier of a club; it is also the identifier of its authorization server. */
export const credentialIssuerId = (config: IssuerConfig, club: string): string => issuerUrl(config, club)

/** The endpoints the club's metadata names. */
export function walletEndpoints(config: IssuerConfig, club: string): { token: string; nonce: string; credential: string } {
  return {
    token: config.urls.public + fillPath(PUBLIC_PATHS.walletToken, { domain: club }),
    nonce: config.urls.public + fillPath(PUBLIC_PATHS.walletNonce, { domain: club }),
    credential: config.urls.public + fillPath(PUBLIC_PATHS.walletCredential, { domain: club }),
  }
}

/** Where a wallet fetches the offer of one credential: stable, so a mail or a printed QR code keeps working. */
export const credentialOfferUri = (config: IssuerConfig, club: string, credentialId: string): string =>
  config.urls.public + fillPath(PUBLIC_PATHS.credentialOffer, { domain: club, credentialId })

/**
 * The link that opens a wallet with the offer (OID4VCI 1.0 §4.1.3, by reference): what the share page shows
 * as a link and a QR code and what the mail carries. It holds no code: each fetch of the offer mints one.
 */
export const credentialOfferLink = (config: IssuerConfig, club: string, credentialId: string): string =>
  `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(credentialOfferUri(config, club, credentialId))}`

/**
 * The Learner Credential Wallet link of one credential (docs/learner-credential-wallet.md): stable, so the
 * share page and the mail carry the same one; each visit redirects to a fresh request for the wallet.
 */
export const lcwRequestLink = (config: IssuerConfig, club: string, credentialId: string): string =>
  config.urls.public + fillPath(PUBLIC_PATHS.lcwRequest, { domain: club, credentialId })

/** Where the wallet posts its DID Authentication for the exchange `exchange` (the request's `vc_request_url`). */
export const lcwExchangeUrl = (config: IssuerConfig, club: string, exchange: string): string =>
  config.urls.public + fillPath(PUBLIC_PATHS.lcwExchange, { domain: club, exchange })
