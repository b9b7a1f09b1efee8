import { readInput } from '../body.ts'
import type { TemplateCreateBody, TemplatePatchBody } from '../../../core/inputs.ts'
import { json } from '../responses.ts'
import { listQuery, numericId } from '../router.ts'
import type { ScopedCall } from '../operation.ts'

/** Templates on v2, `{base_url}/v2/clubs/{clubDomain}/achievements` (docs/api.md §4.10). */
export async function listTemplates({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json(await issuer.achievements.list(club, listQuery(request)))
}

/** Answers 201 with `Location` (docs/decisions/0011-templates.md). */
export async function createTemplate({ issuer, request, club }: ScopedCall): Promise<Response> {
  const template = await issuer.achievements.create(club, await readInput<TemplateCreateBody>(request, issuer.config.maxBodyBytes))
  const location = `${issuer.config.urls.base}/v2/clubs/${encodeURIComponent(club)}/achievements/${template.id}`
  return json({ data: template }, 201, { location })
}

export async function readTemplate({ issuer, request, club }: ScopedCall): Promise<Response> {
  return json({ data: await issuer.achievements.read(club, numericId(request)) })
}

export async function patchTemplate({ issuer, request, club }: ScopedCall): Promise<Response> {
  const body = await readInput<TemplatePatchBody>(request, issuer.config.maxBodyBytes)
  return json({ data: await issuer.achievements.patch(club, numericId(request), body) })
}
