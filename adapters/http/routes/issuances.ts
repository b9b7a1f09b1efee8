import { authorizeClubOperation } from '../auth.ts'
import { readJson } from '../body.ts'
import { idempotencyOf, idempotentResponse, json } from '../responses.ts'
import { numericId, param, type RouteTable } from '../router.ts'
import { listQuery } from './club-api.ts'
import type { CoreIssuer } from '../../../core/issuer.ts'

/** Issuing, issuance reads, credentials and the event feed (interface-spec §4.3 to §4.9). */
export function issuanceRoutes(issuer: CoreIssuer, routes: RouteTable, clubPath: string): void {
  const { maxBodyBytes } = issuer.config

  routes.add('POST', `${clubPath}/issuances`, async (request) => {
    const club = param(request, 'clubDomain')
    const principal = await authorizeClubOperation(issuer, request, club, 'issuance:write')
    const body = await readJson(request, maxBodyBytes)
    const outcome = await issuer.issuances.issue(club, body, idempotencyOf(request, principal.clientId))
    return idempotentResponse(outcome)
  })

  routes.add('POST', `${clubPath}/issuances/:id/revoke`, async (request) => {
    const club = param(request, 'clubDomain')
    const principal = await authorizeClubOperation(issuer, request, club, 'issuance:revoke')
    const body = await readJson(request, maxBodyBytes, { optional: true })
    const outcome = await issuer.issuances.revoke(club, numericId(request), body, idempotencyOf(request, principal.clientId))
    return idempotentResponse(outcome)
  })

  routes.add('GET', `${clubPath}/issuances`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'issuance:read')
    const achievementId = new URL(request.url).searchParams.get('achievementId')
    return json(await issuer.issuances.list(club, { ...listQuery(request), achievementId }))
  })

  routes.add('GET', `${clubPath}/issuances/:id`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'issuance:read')
    return json({ data: await issuer.issuances.read(club, numericId(request)) })
  })

  routes.add('GET', `${clubPath}/issuances/:id/credential`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'issuance:read')
    return json({ data: await issuer.issuances.credential(club, numericId(request)) })
  })

  routes.add('GET', `${clubPath}/events`, async (request) => {
    const club = param(request, 'clubDomain')
    await authorizeClubOperation(issuer, request, club, 'events:read')
    return json(await issuer.events.list(club, listQuery(request)))
  })
}
