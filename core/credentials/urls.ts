/*
 * Every public address of a credential, in one place (docs/api.md §2.7, docs/decisions/0001-addresses.md): `{public_url}` plus a
 * filled `PUBLIC_PATHS` template, the same template the HTTP face serves.
 */
import { PUBLIC_PATHS, fillPath } from '../public-paths.ts'
import type { IssuerConfig } from '../config.ts'

/** `https://{clubDomain}.{share_url_host}/credentials/{id}`, with the scheme of `{public_url}`. */
export function shareUrl(config: IssuerConfig, club: string, credentialId: string): string {
  const scheme = new URL(config.urls.public).protocol
  return `${scheme}//${club}.${config.urls.shareHost}/credentials/${credentialId}`
}

/** The share card of a credential's share page (docs/share-card.md): an absolute URL, as `og:image` wants. */
export const shareCardUrl = (config: IssuerConfig, club: string, credentialId: string): string => `${shareUrl(config, club, credentialId)}/card.png`

export const verifyUrl = (config: IssuerConfig, issuanceId: number): string => config.urls.public + fillPath(PUBLIC_PATHS.verify, { issuanceId })

export const jwtUrl = (config: IssuerConfig, credentialId: string): string => config.urls.public + fillPath(PUBLIC_PATHS.credential, { credentialId })

export const issuerUrl = (config: IssuerConfig, club: string): string => config.urls.public + fillPath(PUBLIC_PATHS.issuer, { domain: club })

export const didDocumentUrl = (config: IssuerConfig, club: string): string => config.urls.public + fillPath(PUBLIC_PATHS.didDocument, { domain: club })

export const achievementUrl = (config: IssuerConfig, club: string, templateId: number): string =>
  config.urls.public + fillPath(PUBLIC_PATHS.achievement, { domain: club, templateId })

/**
 * The club's revocation list: its first list at the address of docs/api.md §4.11, later lists (after one fills)
 * under it by list id.
 */
export const statusListUrl = (config: IssuerConfig, club: string, list: { id: number; first: boolean }): string =>
  config.urls.public +
  (list.first ? fillPath(PUBLIC_PATHS.firstStatusList, { domain: club }) : fillPath(PUBLIC_PATHS.statusList, { domain: club, listId: list.id }))

/** An image by its content hash: immutable, so credentials may point at it. */
export const imageUrl = (config: IssuerConfig, hash: string): string => config.urls.public + fillPath(PUBLIC_PATHS.image, { hash })

/** `{public_url}/skills/{tag}`: the alignment target of a tag (docs/api.md §2.3). */
export const skillUrl = (config: IssuerConfig, tag: string): string => config.urls.public + fillPath(PUBLIC_PATHS.skill, { tag })
