import { readInput } from '../body.ts'
import type { DesignCreateBody, DesignPatchBody } from '../../../core/inputs.ts'
import { json } from '../responses.ts'
import { listQuery, numericId } from '../router.ts'
import type { ScopedCall } from '../operation.ts'

/** Designs, `{base_url}/v2/clubs/{clubDomain}/designs` (scopes `designs:read` and `designs:manage`, docs/decisions/0003-scopes-per-operation.md). */
export async function listDesigns({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json(await issuer.designs.list(club, listQuery(request)))
}

export async function createDesign({ issuer, request, club }: ScopedCall): Promise<Response> {
  const design = await issuer.designs.create(club, await readInput<DesignCreateBody>(request, issuer.config.maxBodyBytes))
  return json({ data: design }, 201, { location: `${issuer.config.urls.base}/v2/clubs/${encodeURIComponent(club)}/designs/${design.id}` })
}

export async function readDesign({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json({ data: await issuer.designs.read(club, numericId(request)) })
}

export async function patchDesign({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json({ data: await issuer.designs.patch(club, numericId(request), await readInput<DesignPatchBody>(request, issuer.config.maxBodyBytes)) })
}
