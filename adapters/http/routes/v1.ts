import { authenticate } from '../auth.ts'
import { readJson } from '../body.ts'
import { idempotencyOf, idempotentResponse, json } from '../responses.ts'
import { numericId, type RouteTable } from '../router.ts'
import type { CoreIssuer } from '../../../core/issuer.ts'
import type { ScopeName } from '../../../core/scopes.ts'

/**
 * The v1 surface (spec §4.12, DESIGN §5 "v1"): bearer tokens as on v2, the club taken from the token.
 * Errors are problem documents as on v2.
 */
export function v1Routes(issuer: CoreIssuer, routes: RouteTable, basePath: string): void {
  const v1 = `${basePath}/v1`
  const { maxBodyBytes, urls } = issuer.config
  const caller = async (request: Request, scope: ScopeName) => {
    const principal = await authenticate(issuer, request)
    issuer.tokens.authorize(principal, principal.club, scope)
    return principal
  }

  routes.add('GET', `${v1}/forms/:id`, async (request) => {
    const { club } = await caller(request, 'achievements:read')
    return json(await issuer.v1.readForm(club, numericId(request)))
  })

  routes.add('POST', `${v1}/forms`, async (request) => {
    const { club } = await caller(request, 'achievements:manage')
    const form = await issuer.v1.createForm(club, await readJson(request, maxBodyBytes))
    return json(form, 201, { location: `${urls.base}/v1/forms/${form.id}` })
  })

  routes.add('PATCH', `${v1}/forms/:id`, async (request) => {
    const { club } = await caller(request, 'achievements:manage')
    return json(await issuer.v1.patchForm(club, numericId(request), await readJson(request, maxBodyBytes)))
  })

  routes.add('POST', `${v1}/achievements`, async (request) => {
    const principal = await caller(request, 'issuance:write')
    const outcome = await issuer.v1.issue(principal.club, await readJson(request, maxBodyBytes), idempotencyOf(request, principal.clientId))
    return idempotentResponse(outcome)
  })

  routes.add('GET', `${v1}/achievements/:id`, async (request) => {
    const { club } = await caller(request, 'issuance:read')
    return json(await issuer.v1.readIssuance(club, numericId(request)))
  })
}
