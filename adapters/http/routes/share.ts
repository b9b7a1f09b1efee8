import { Router, type IRequest } from 'itty-router'
import { param } from '../router.ts'
import { cardResponse, downloadResponse, htmlResponse, scriptResponse } from '../share-page/headers.ts'
import { ifNoneMatch } from '../conditional.ts'
import { SHARE_JS } from '../share-page/share-script.ts'
import {
  JSON_LD_PENDING,
  METHOD_NOT_ALLOWED,
  NO_JSON_LD_FORM,
  NO_SUCH_CREDENTIAL,
  NO_SUCH_PAGE,
  SERVER_BUSY,
  SERVER_ERROR,
  STORAGE_UNAVAILABLE,
  renderErrorPage,
  type ErrorPage,
} from '../share-page/error-page.ts'
import { ProblemError, StorageUnavailable } from '../../../core/errors.ts'
import { qrDataUri } from '../share-page/qr.ts'
import { renderSharePage } from '../share-page/render.ts'
import type { CoreIssuer } from '../../../core/core-issuer.ts'
import type { IssuerUrls } from '../../../core/config.ts'

/** A DNS label: the club part of a share host. */
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
/** Credential ids are UUIDs (docs/api.md §2.7); anything else is not looked up. */
const CREDENTIAL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' }

/**
 * The club a request is for when its host is `{club}.{share_url_host}` (docs/decisions/0001-addresses.md),
 * else `null`. Hosts compare case-insensitively (URL parsing lowercases them); a share host without a port
 * matches the default port of the request's scheme. A host that is the host of another surface (say an API
 * at `api.{share_url_host}`) stays with that surface.
 */
export function createShareHostMatcher(urls: IssuerUrls): (requestUrl: string) => string | null {
  const share = new URL(`http://${urls.shareHost}`)
  const suffix = `.${share.hostname}`
  const otherHosts = new Set([urls.base, urls.auth, urls.public, urls.legacyBase].map((url) => new URL(url).host))
  return (requestUrl) => {
    const url = new URL(requestUrl)
    if (!url.hostname.endsWith(suffix) || otherHosts.has(url.host)) return null
    const defaultPort = DEFAULT_PORTS[url.protocol] ?? ''
    if ((url.port || defaultPort) !== (share.port || defaultPort)) return null
    const club = url.hostname.slice(0, -suffix.length)
    return DNS_LABEL.test(club) ? club : null
  }
}

export interface ShareSurface {
  /** Answers a request to the share host of `club`. */
  fetch(request: Request, club: string): Promise<Response>
  /** The itty paths served on a share host. */
  paths: readonly string[]
}

/**
 * The share pages on `{club}.{share_url_host}` (docs/api.md §2.7 `shareUrl`, §4.11): the page of a credential,
 * its two downloads, its share card (docs/share-card.md) and the share button's script. Everything on this host is HTML for people (errors too), never problem+json.
 */
export function createShareSurface(issuer: CoreIssuer, { onError }: { onError: (error: unknown, request: Request) => void }): ShareSurface {
  const view = (request: IRequest, club: string) => {
    const id = param(request, 'credentialId')
    return CREDENTIAL_ID.test(id) ? issuer.verification.shareView(club, id) : Promise.resolve(null)
  }
  const errorPage = (page: ErrorPage, headers: Record<string, string> = {}) => htmlResponse(renderErrorPage(page), page.status, headers)

  const router = Router({
    catch: (error: unknown, request: Request) => {
      if (error instanceof StorageUnavailable) return errorPage(STORAGE_UNAVAILABLE, { 'retry-after': '5' })
      if (error instanceof ProblemError && error.code === 'server-busy') return errorPage(SERVER_BUSY, { 'retry-after': String(error.extra?.retryAfter ?? 1) })
      onError(error, request)
      return errorPage(SERVER_ERROR)
    },
    finally: [(response: Response | undefined) => response ?? errorPage(NO_SUCH_PAGE)],
  })
  const paths = [
    '/credentials/:credentialId',
    '/credentials/:credentialId/credential.jwt',
    '/credentials/:credentialId/credential.json',
    '/credentials/:credentialId/card.png',
    '/share.js',
  ]

  router.get(paths[0]!, async (request: IRequest, club: string) => {
    const found = await view(request, club)
    if (!found) return errorPage(NO_SUCH_CREDENTIAL)
    // In memory only: the count reaches the storage in a batch (core/verification/share-view-counter.ts).
    issuer.verification.countShareView(found.credentialId, request.headers.get('user-agent'))
    return htmlResponse(renderSharePage(found, { qr: qrDataUri(found.urls.share), walletQr: qrDataUri(found.urls.walletOffer), now: found.checkedAt }))
  })

  router.get(paths[1]!, async (request: IRequest, club: string) => {
    const found = await view(request, club)
    if (!found) return errorPage(NO_SUCH_CREDENTIAL)
    const jwt = await issuer.verification.credentialJwt(found.credentialId)
    return downloadResponse(jwt, 'text/plain; charset=utf-8', `credential-${found.credentialId}.jwt`)
  })

  // The JSON-LD form, named `.json` so that the file pickers of wallets and verifiers take it.
  router.get(paths[2]!, async (request: IRequest, club: string) => {
    const found = await view(request, club)
    if (!found) return errorPage(NO_SUCH_CREDENTIAL)
    const { jsonLd } = await issuer.verification.credentialForms(found.credentialId)
    if (jsonLd.state === 'pending') return errorPage(JSON_LD_PENDING, { 'retry-after': '5' })
    if (jsonLd.state === 'none') return errorPage(NO_JSON_LD_FORM)
    return downloadResponse(`${JSON.stringify(jsonLd.credential, null, 2)}\n`, 'application/ld+json', `credential-${found.credentialId}.json`)
  })

  // The card shows no verdict, so it needs no verification: only the credential, read by core.
  router.get(paths[3]!, async (request: IRequest, club: string) => {
    const id = param(request, 'credentialId')
    const card = CREDENTIAL_ID.test(id) ? await issuer.verification.shareCard(club, id) : null
    if (!card) return errorPage(NO_SUCH_CREDENTIAL)
    if (ifNoneMatch(request, card.etag)) return cardResponse(null, card.etag)
    return cardResponse(await card.png(), card.etag)
  })

  router.get(paths[4]!, () => scriptResponse(SHARE_JS))

  for (const path of paths) router.all(path, () => errorPage(METHOD_NOT_ALLOWED, { allow: 'GET, HEAD' }))

  return { fetch: (request, club) => router.fetch(request, club), paths }
}
