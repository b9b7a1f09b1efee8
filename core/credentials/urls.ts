import type { IssuerConfig } from '../config.ts'

/** Every public address of a credential, in one place (spec §2.7, DESIGN §3). */
export const publicBase = (config: IssuerConfig): string => `${config.urls.public}/open-badges/v3`

/** `https://{clubDomain}.{share_url_host}/credentials/{id}`, with the scheme of `{public_url}`. */
export function shareUrl(config: IssuerConfig, club: string, credentialId: string): string {
  const scheme = new URL(config.urls.public).protocol
  return `${scheme}//${club}.${config.urls.shareHost}/credentials/${credentialId}`
}

export const verifyUrl = (config: IssuerConfig, issuanceId: number): string =>
  `${publicBase(config)}/achievements/${issuanceId}/verify`

export const jwtUrl = (config: IssuerConfig, credentialId: string): string => `${publicBase(config)}/credentials/${credentialId}`

export const issuerUrl = (config: IssuerConfig, club: string): string => `${publicBase(config)}/issuers/${club}`

export const didDocumentUrl = (config: IssuerConfig, club: string): string => `${issuerUrl(config, club)}/did.json`

export const achievementUrl = (config: IssuerConfig, club: string, templateId: number): string =>
  `${issuerUrl(config, club)}/achievements/${templateId}`

/**
 * The club's revocation list: its first list at the spec's address, later lists (after one fills)
 * under it by list id.
 */
export const statusListUrl = (config: IssuerConfig, club: string, list: { id: number; first: boolean }): string =>
  `${issuerUrl(config, club)}/status-lists/revocation${list.first ? '' : `/${list.id}`}`

/** An image by its content hash: immutable, so credentials may point at it. */
export const imageUrl = (config: IssuerConfig, hash: string): string => `${publicBase(config)}/images/${hash}`
