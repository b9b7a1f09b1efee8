import { readInput } from '../body.ts'
import type { LegacyFormBody } from '../../../core/inputs.ts'
import { LEGACY_MESSAGES, LegacyUnauthorized, legacyErrorResponse, type legacyFormCreatedSchema } from '../legacy-error.ts'
import type * as v from 'valibot'
import type { Call } from '../operation.ts'

/**
 * Legacy form creation: `POST {legacy_base_url}/open-api/achievements/forms` (docs/api.md §4.13). API-key
 * authentication with `Authorization: Bearer <key>` or the bare key (docs/api.md §5 item 7); the key is checked
 * before the body, as the legacy service's guard did.
 */
export async function createLegacyForm({ issuer, request, onError }: Call): Promise<Response> {
  try {
    const header = (request.headers.get('authorization') ?? '').trim()
    const apiKey = header.replace(/^Bearer\s+/i, '')
    const club = apiKey ? await issuer.legacy.authenticate(apiKey) : null
    if (!club) throw new LegacyUnauthorized()
    const { achievementFormId } = await issuer.legacy.createForm(club, await readInput<LegacyFormBody>(request, issuer.config.maxBodyBytes))
    const body: v.InferOutput<typeof legacyFormCreatedSchema> = { statusCode: 201, message: LEGACY_MESSAGES.created, achievementFormId }
    return new Response(JSON.stringify(body), {
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    })
  } catch (error) {
    return legacyErrorResponse(error, (cause) => onError(cause, request))
  }
}
