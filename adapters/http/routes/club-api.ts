import { authorizeClubOperation } from '../auth.ts'
import { readJson } from '../body.ts'
import { json } from '../responses.ts'
import { numericId, param, type RouteTable } from '../router.ts'
import { designRoutes } from './designs.ts'
import { fileRoutes } from './files.ts'
import { issuanceRoutes } from './issuances.ts'
import type { IRequest } from 'itty-router'
import type { CoreIssuer } from '../../../core/issuer.ts'
import type { ListQuery } from '../../../core/lists/cursor.ts'

/** The v2 club API under `{base_url}/v2/clubs/{clubDomain}` (interface-spec §4). */
export function clubApiRoutes(issuer: CoreIssuer, routes: RouteTable, basePath: string): void {
  const club = `${basePath}/v2/clubs/:clubDomain`
  const { maxBodyBytes, urls } = issuer.config
  const clubOf = (request: IRequest) => param(request, 'clubDomain')

  routes.add('GET', `${club}/`, async (request) => {
    const principal = await authorizeClubOperation(issuer, request, clubOf(request), 'clubs:read')
    return json({ data: await issuer.clubs.root(principal) })
  })

  routes.add('GET', `${club}/achievements`, async (request) => {
    await authorizeClubOperation(issuer, request, clubOf(request), 'achievements:read')
    return json(await issuer.achievements.list(clubOf(request), listQuery(request)))
  })

  routes.add('POST', `${club}/achievements`, async (request) => {
    await authorizeClubOperation(issuer, request, clubOf(request), 'achievements:manage')
    const template = await issuer.achievements.create(clubOf(request), await readJson(request, maxBodyBytes))
    const location = `${urls.base}/v2/clubs/${encodeURIComponent(clubOf(request))}/achievements/${template.id}`
    return json({ data: template }, 201, { location })
  })

  routes.add('GET', `${club}/achievements/:id`, async (request) => {
    await authorizeClubOperation(issuer, request, clubOf(request), 'achievements:read')
    return json({ data: await issuer.achievements.read(clubOf(request), numericId(request)) })
  })

  routes.add('PATCH', `${club}/achievements/:id`, async (request) => {
    await authorizeClubOperation(issuer, request, clubOf(request), 'achievements:manage')
    const body = await readJson(request, maxBodyBytes)
    return json({ data: await issuer.achievements.patch(clubOf(request), numericId(request), body) })
  })

  issuanceRoutes(issuer, routes, club)
  designRoutes(issuer, routes, club)
  fileRoutes(issuer, routes, club)
}

/** `limit` and `cursor` of a cursor list; a repeated parameter counts by its first value. */
export function listQuery(request: Request): ListQuery {
  const search = new URL(request.url).searchParams
  return { limit: search.get('limit'), cursor: search.get('cursor') }
}
