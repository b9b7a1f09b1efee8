import { ProblemError } from '../../../core/errors.ts'
import { ifNoneMatch } from '../conditional.ts'
import { problemResponse } from '../problem.ts'
import { json } from '../responses.ts'
import { numericId, param, type Handler, type RouteTable } from '../router.ts'
import { skillUrl } from '../../../core/achievements/present.ts'
import type { CoreIssuer } from '../../../core/issuer.ts'

/**
 * The public verification surface under `{public_url}/open-badges/v3` (spec §4.11): no authentication,
 * readable from any origin. Caching fits each resource: a JWT never changes (immutable); verdicts and
 * revocation lists change on revocation (short, revalidated with ETags).
 */
export function publicRoutes(issuer: CoreIssuer, routes: RouteTable, publicPath: string): void {
  const base = `${publicPath}/open-badges/v3`
  const cors = { 'access-control-allow-origin': '*' }
  // Problems (404 credential-not-found, club-not-found...) are readable from any origin too, so that a
  // verifier in a browser on another site sees the 404 rather than a CORS failure.
  const get = (path: string, handler: Handler) =>
    routes.add('GET', path, async (request) => {
      try {
        return await handler(request)
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error
        const response = problemResponse(error, issuer.config.problemBaseUrl)
        response.headers.set('access-control-allow-origin', '*')
        return response
      }
    })

  get(`${base}/achievements/:issuanceId/verify`, async (request) => {
    const verdict = await issuer.verification.verify(numericId(request, 'issuanceId'))
    return json(verdict, verdict.statusCode, { ...cors, 'cache-control': 'public, max-age=10, must-revalidate' })
  })

  get(`${base}/credentials/:credentialId`, async (request) => {
    const id = param(request, 'credentialId')
    const jwt = await issuer.verification.credentialJwt(id)
    return conditional(request, `"${id}"`, jwt, {
      ...cors,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    })
  })

  get(`${base}/issuers/:domain/did.json`, async (request) => {
    const document = JSON.stringify(await issuer.verification.didDocument(param(request, 'domain')))
    return conditional(request, await weakTag(document), document, {
      ...cors,
      'content-type': 'application/did+json',
      'cache-control': 'public, max-age=300, must-revalidate',
    })
  })

  get(`${base}/images/:hash`, async (request) => {
    const image = await issuer.verification.image(param(request, 'hash'))
    return conditional(request, `"${image.hash}"`, new Uint8Array(image.bytes), {
      ...cors,
      'content-type': image.mediaType,
      'cache-control': 'public, max-age=31536000, immutable',
      // An SVG opened directly must not run anything, whatever slipped past the upload checks.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    })
  })

  // The alignment target of a tag (spec §2.3 `/skills/{tag}`): a resolvable description of the skill.
  get(`${publicPath}/skills/:tag`, async (request) => {
    const tag = param(request, 'tag')
    const body = JSON.stringify({ id: skillUrl(issuer.config, tag), type: 'ext:SkillTag', name: tag })
    return conditional(request, await weakTag(body), body, {
      ...cors,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=86400',
    })
  })

  const statusList = async (request: Request, club: string, listId: number | null) => {
    const list = await issuer.verification.statusList(club, listId)
    return conditional(request, list.etag, list.jwt, {
      ...cors,
      'content-type': 'application/vc+jwt',
      'cache-control': 'public, max-age=60, must-revalidate',
    })
  }
  get(`${base}/issuers/:domain/status-lists/revocation`, (request) => statusList(request, param(request, 'domain'), null))
  get(`${base}/issuers/:domain/status-lists/revocation/:listId`, (request) =>
    statusList(request, param(request, 'domain'), numericId(request, 'listId')),
  )
}

/** 304 when the client's `If-None-Match` already names this version, else the body with its ETag. */
function conditional(request: Request, etag: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>): Response {
  if (ifNoneMatch(request, etag)) {
    return new Response(null, {
      status: 304,
      headers: { etag, 'cache-control': headers['cache-control']!, 'access-control-allow-origin': headers['access-control-allow-origin']! },
    })
  }
  return new Response(body, { status: 200, headers: { ...headers, etag } })
}

async function weakTag(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)))
  return `W/"${Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join('')}"`
}
