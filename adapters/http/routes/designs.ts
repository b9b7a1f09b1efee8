import { authorizeClubOperation } from '../auth.ts'
import { readJson } from '../body.ts'
import { json } from '../responses.ts'
import { numericId, param, type RouteTable } from '../router.ts'
import { listQuery } from './club-api.ts'
import type { CoreIssuer } from '../../../core/issuer.ts'

/** Designs (DESIGN §5: scopes `designs:read` and `designs:manage`). */
export function designRoutes(issuer: CoreIssuer, routes: RouteTable, clubPath: string): void {
  const { maxBodyBytes, urls } = issuer.config

  routes.add('GET', `${clubPath}/designs`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'designs:read')
    return json(await issuer.designs.list(club, listQuery(request)))
  })

  routes.add('POST', `${clubPath}/designs`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'designs:manage')
    const design = await issuer.designs.create(club, await readJson(request, maxBodyBytes))
    return json({ data: design }, 201, { location: `${urls.base}/v2/clubs/${encodeURIComponent(club)}/designs/${design.id}` })
  })

  routes.add('GET', `${clubPath}/designs/:id`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'designs:read')
    return json({ data: await issuer.designs.read(club, numericId(request)) })
  })

  routes.add('PATCH', `${clubPath}/designs/:id`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'designs:manage')
    return json({ data: await issuer.designs.patch(club, numericId(request), await readJson(request, maxBodyBytes)) })
  })
}
