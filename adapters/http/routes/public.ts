import * as v from 'valibot'
import { skillUrl } from '../../../core/credentials/urls.ts'
import { ProblemError } from '../../../core/errors.ts'
import { ifNoneMatch } from '../conditional.ts'
import { acceptsJwt, jsonLdMediaType, jwtContentType, jwtMediaType } from '../json-ld-negotiation.ts'
import { ANY_ORIGIN } from '../cors.ts'
import { json } from '../responses.ts'
import { numericId, param } from '../router.ts'
import { SVG_CONTENT_SECURITY_POLICY } from '../security-headers.ts'
import type { Call } from '../operation.ts'

/*
 * The public verification surface at `PUBLIC_PATHS` under `{public_url}` (docs/api.md §4.11): no authentication,
 * readable from any origin (problems too: the router marks them). Caching fits each resource: a JWT never
 * changes (immutable); verdicts and revocation lists change on revocation (short, revalidated with ETags).
 */

export async function verify({ issuer, request }: Call): Promise<Response> {
  const verdict = await issuer.verification.verify(numericId(request, 'issuanceId'))
  return json(verdict, verdict.statusCode, { ...ANY_ORIGIN, 'cache-control': 'public, max-age=10, must-revalidate' })
}

/**
 * A credential, negotiated (docs/data-integrity.md § Negotiation): its JWT (as `jwtMediaType` says, the
 * status list's rule), or its JSON-LD form as the JSON-LD media type asked for. A credential signed before proofs existed has its JWT only, for every
 * Accept. One whose proof is still being made answers its JWT, not to be kept, to a request that takes
 * the JWT too, and 409 `credential-pending` to one that takes only JSON-LD: never a form without its
 * proof. Both forms never change once made, each with its own ETag.
 */
export async function credential({ issuer, request }: Call): Promise<Response> {
  const id = param(request, 'credentialId')
  const { jwt, jsonLd } = await issuer.verification.credentialForms(id)
  const mediaType = jsonLdMediaType(request)
  const immutable = { ...ANY_ORIGIN, 'cache-control': 'public, max-age=31536000, immutable' }
  const jwtType = jwtContentType(jwtMediaType(request))
  if (mediaType === null || jsonLd.state === 'none') {
    return conditional(request, `"${id}"`, jwt, { ...immutable, 'content-type': jwtType })
  }
  if (jsonLd.state === 'pending') {
    // Revalidated on every use: once the proof is made, the same Accept gets the JSON-LD form (another ETag).
    if (acceptsJwt(request)) return conditional(request, `"${id}"`, jwt, { ...ANY_ORIGIN, 'cache-control': 'no-cache', 'content-type': jwtType })
    throw new ProblemError('credential-pending', {
      detail:
        'The JSON-LD form of this credential (its Data Integrity proof) is still being made: ask again in a moment, or accept its JWT (application/vc+jwt).',
      extra: { retryAfter: PROOF_RETRY_SECONDS },
    })
  }
  const etag = `"${id}.${mediaType.slice('application/'.length)}"`
  return conditional(request, etag, JSON.stringify(jsonLd.credential), { ...immutable, 'content-type': mediaType })
}

/** A proof follows its JWT within seconds when the worker keeps up (docs/data-integrity.md § Signing). */
const PROOF_RETRY_SECONDS = 5

export async function didDocument({ issuer, request }: Call): Promise<Response> {
  const document = JSON.stringify(await issuer.verification.didDocument(param(request, 'domain')))
  return conditional(request, await weakTag(document), document, {
    ...ANY_ORIGIN,
    'content-type': 'application/did+json',
    'cache-control': 'public, max-age=300, must-revalidate',
  })
}

export async function image({ issuer, request }: Call): Promise<Response> {
  const found = await issuer.verification.image(param(request, 'hash'))
  return conditional(request, `"${found.hash}"`, new Uint8Array(found.bytes), {
    ...ANY_ORIGIN,
    'content-type': found.mediaType,
    'cache-control': 'public, max-age=31536000, immutable',
    // An SVG opened directly must not run anything, whatever slipped past the upload checks.
    'content-security-policy': SVG_CONTENT_SECURITY_POLICY,
  })
}

/** The skill a tag names: `id` its own address, the `targetUrl` of the template's alignment. */
export const skillSchema = v.object({ id: v.string(), type: v.literal('ext:SkillTag'), name: v.string() })

/** The alignment target of a tag (docs/api.md §2.3 `/skills/{tag}`): a resolvable description of the skill. */
export async function skill({ issuer, request }: Call): Promise<Response> {
  const tag = param(request, 'tag')
  const skill: v.InferOutput<typeof skillSchema> = { id: skillUrl(issuer.config, tag), type: 'ext:SkillTag', name: tag }
  const body = JSON.stringify(skill)
  return conditional(request, await weakTag(body), body, {
    ...ANY_ORIGIN,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=86400',
  })
}

export function firstStatusList({ issuer, request }: Call): Promise<Response> {
  return statusList(issuer, request, param(request, 'domain'), null)
}

export function laterStatusList({ issuer, request }: Call): Promise<Response> {
  return statusList(issuer, request, param(request, 'domain'), numericId(request, 'listId'))
}

/**
 * The list as a VC-JWT, or as JSON-LD with a Data Integrity proof when the request asks for it
 * (`jsonLdMediaType`); each form with its own ETag, so that a 304 never answers one form for the other.
 */
async function statusList(issuer: Call['issuer'], request: Request, club: string, listId: number | null): Promise<Response> {
  const headers = { ...ANY_ORIGIN, 'cache-control': 'public, max-age=60, must-revalidate', vary: 'Accept' }
  const mediaType = jsonLdMediaType(request)
  const secured = mediaType ? await issuer.verification.statusListJsonLd(club, listId) : null
  if (mediaType && secured) return conditional(request, secured.etag, secured.document, { ...headers, 'content-type': mediaType })
  const list = await issuer.verification.statusList(club, listId)
  return conditional(request, list.etag, list.jwt, { ...headers, 'content-type': jwtContentType(jwtMediaType(request)) })
}

/** 304 when the client's `If-None-Match` already names this version, else the body with its ETag. */
function conditional(request: Request, etag: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>): Response {
  if (ifNoneMatch(request, etag)) {
    const notModified: Record<string, string> = {
      etag,
      'cache-control': headers['cache-control']!,
      'access-control-allow-origin': headers['access-control-allow-origin']!,
    }
    // A 304 carries the Vary its 200 would (RFC 9110 §15.4.5), so that a cache keys it the same way.
    if (headers.vary !== undefined) notModified.vary = headers.vary
    return new Response(null, { status: 304, headers: notModified })
  }
  return new Response(body, { status: 200, headers: { ...headers, etag } })
}

async function weakTag(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)))
  return `W/"${Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join('')}"`
}
