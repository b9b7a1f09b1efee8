/**
 * Which form of a credential a request asks for (docs/api.md §4.11, docs/data-integrity.md § Status list):
 * the one rule for every resource served both as a VC-JWT and as JSON-LD with a Data Integrity proof (the
 * status list; the credential). A resource that has both forms answers with `Vary: Accept`.
 */

/** The media types that select the JSON-LD form, in the order preferred when the request ranks them equally. */
export const JSON_LD_MEDIA_TYPES = ['application/ld+json', 'application/vc', 'application/vc+ld+json', 'application/json'] as const

export type JsonLdMediaType = (typeof JSON_LD_MEDIA_TYPES)[number]

/** The media types of the JWT form: naming one of them with a higher `q` keeps the JWT. */
const JWT_MEDIA_TYPES: readonly string[] = ['application/vc+jwt', 'application/jwt', 'text/plain']

/**
 * The media type to answer the JSON-LD form with, or `null` for the JWT form. A request gets JSON-LD
 * when its `Accept` names one of `JSON_LD_MEDIA_TYPES` (parameters such as `profile` aside) with a `q`
 * above 0 and at least that of any JWT media type it names; the answer's type is the one it named with
 * the highest `q` (the earlier in `JSON_LD_MEDIA_TYPES` on a tie). No `Accept`, and wildcards (`*\/*`,
 * `application/*`), keep the JWT: it is the form every existing verifier of clubcred reads.
 *
 * @example
 * wantsJsonLd(new Request(url, { headers: { accept: 'application/ld+json, application/json' } })) // 'application/ld+json'
 * wantsJsonLd(new Request(url)) // null
 */
export function wantsJsonLd(request: Request): JsonLdMediaType | null {
  let best: { type: JsonLdMediaType; q: number } | null = null
  let jwtQ = 0
  for (const { type, q } of mediaRanges(request.headers.get('accept'))) {
    if (JWT_MEDIA_TYPES.includes(type)) jwtQ = Math.max(jwtQ, q)
    const jsonLd = JSON_LD_MEDIA_TYPES.find((candidate) => candidate === type)
    if (!jsonLd || q <= 0) continue
    const better = !best || q > best.q || (q === best.q && JSON_LD_MEDIA_TYPES.indexOf(jsonLd) < JSON_LD_MEDIA_TYPES.indexOf(best.type))
    if (better) best = { type: jsonLd, q }
  }
  return best && best.q >= jwtQ ? best.type : null
}

/** The media ranges of an `Accept` header (RFC 9110 §12.5.1), lower-cased, each with its weight: 1 when absent, 0 (the range ignored) when not a number from 0 to 1. */
function mediaRanges(accept: string | null): { type: string; q: number }[] {
  if (!accept) return []
  return accept.split(',').map((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase())
    const weight = parameters.find((parameter) => parameter.startsWith('q='))
    const q = weight === undefined ? 1 : Number(weight.slice(2))
    return { type, q: Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0 }
  })
}
