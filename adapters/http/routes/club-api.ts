import { authorizeClubOperation } from '../auth.ts'
import { json } from '../responses.ts'
import { param, type RouteTable } from '../router.ts'
import type { CoreIssuer } from '../../../core/issuer.ts'

/** The v2 club API under `{base_url}/v2/clubs/{clubDomain}` (interface-spec §4). */
export function clubApiRoutes(issuer: CoreIssuer, routes: RouteTable, basePath: string): void {
  const club = `${basePath}/v2/clubs/:clubDomain`

  routes.add('GET', `${club}/`, async (request) => {
    const principal = await authorizeClubOperation(issuer, request, param(request, 'clubDomain'), 'clubs:read')
    return json({ data: await issuer.clubs.root(principal) })
  })
}
