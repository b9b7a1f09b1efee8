/*
 * Which form a request asks for (docs/data-integrity.md § Negotiation), the one rule of every resource
 * served both as a VC-JWT and as JSON-LD with a Data Integrity proof (the credential, the status list):
 * the JWT, as those routes always answered, or the JSON-LD form. The `Accept` header is read
 * as RFC 9110 §12.5.1 says: media ranges with parameters and a weight, the most specific range matching a
 * type giving its weight, `q=0` meaning "not acceptable", no header meaning anything.
 */

/** The media types of the JSON-LD form; a tie between them goes to the earlier one. */
export const JSON_LD_MEDIA_TYPES = ['application/ld+json', 'application/vc+ld+json', 'application/vc', 'application/json'] as const
export type JsonLdMediaType = (typeof JSON_LD_MEDIA_TYPES)[number]

/**
 * The media types the JWT answers to: the VC-JWT's own (`application/vc+jwt`, registered by VC-JOSE-COSE),
 * a JWT's (RFC 7519) and `text/plain`, what the credential was served as before; a tie between them goes
 * to the earlier one.
 */
export const JWT_MEDIA_TYPES = ['application/vc+jwt', 'application/jwt', 'text/plain'] as const
export type JwtMediaType = (typeof JWT_MEDIA_TYPES)[number]

interface MediaRange {
  type: string
  subtype: string
  /** 0 to 1; 0 is "not acceptable". */
  q: number
}

/** How closely a range names a type: the most specific range that matches decides (RFC 9110 §12.5.1). */
const Specificity = { None: -1, Any: 0, Subtypes: 1, Exact: 2 } as const
type Specificity = (typeof Specificity)[keyof typeof Specificity]

interface Preference {
  q: number
  specificity: Specificity
}

/**
 * The JSON-LD media type a request asks for, or `null` when the JWT is to be answered. A request that
 * names a JSON-LD media type (`application/ld+json`, `application/json`, `application/vc`,
 * `application/vc+ld+json`) gets the JSON-LD form unless it weighs a JWT type higher; one that reaches
 * them only through a wildcard gets it only when it weighs the JWT lower (or refuses it). So no `Accept`,
 * `*\/*` and `application/*` keep the JWT, the form every client got before the JSON-LD one existed.
 */
export function jsonLdMediaType(accept: Request | string | null): JsonLdMediaType | null {
  const ranges = parseAccept(acceptValue(accept))
  if (ranges === null) return null
  const jwt = Math.max(...JWT_MEDIA_TYPES.map((type) => preferenceOf(type, ranges).q))
  let best: { type: JsonLdMediaType; preference: Preference } | null = null
  for (const type of JSON_LD_MEDIA_TYPES) {
    const preference = preferenceOf(type, ranges)
    if (!best || outranks(preference, best.preference)) best = { type, preference }
  }
  if (!best || best.preference.q === 0) return null
  const named = best.preference.specificity === Specificity.Exact
  return best.preference.q > jwt || (named && best.preference.q === jwt) ? best.type : null
}

/**
 * The media type the JWT is answered as, the one rule of the credential and the status list: the JWT
 * type the request names outright and weighs highest (`application/vc+jwt`, `application/jwt`), else
 * `text/plain`, the type the interface spec gives the credential's JWT, also for no `Accept` and for wildcards.
 */
export function jwtMediaType(accept: Request | string | null): JwtMediaType {
  const ranges = parseAccept(acceptValue(accept))
  let best: { type: JwtMediaType; q: number } | null = null
  for (const type of JWT_MEDIA_TYPES) {
    const { q, specificity } = ranges === null ? { q: 0, specificity: Specificity.None } : preferenceOf(type, ranges)
    if (specificity === Specificity.Exact && q > 0 && (!best || q > best.q)) best = { type, q }
  }
  return best?.type ?? 'text/plain'
}

/** The `Content-Type` of the JWT answered as `mediaType`: text gets its charset. */
export function jwtContentType(mediaType: JwtMediaType): string {
  return mediaType === 'text/plain' ? 'text/plain; charset=utf-8' : mediaType
}

/**
 * Whether a request (or its `Accept` value) takes the JWT at all: no `Accept`, or a JWT type (named or
 * reached by a wildcard) with a weight above 0. The credential answers it while its JSON-LD form is
 * being made, to a request that prefers that form but takes either.
 */
export function acceptsJwt(accept: Request | string | null): boolean {
  const ranges = parseAccept(acceptValue(accept))
  return ranges === null || JWT_MEDIA_TYPES.some((type) => preferenceOf(type, ranges).q > 0)
}

/** Whether a request (or its `Accept` value) asks for the JSON-LD form rather than the JWT. */
export function wantsJsonLd(accept: Request | string | null): boolean {
  return jsonLdMediaType(accept) !== null
}

/** Higher weight first; at equal weight, the type named outright over one a wildcard reaches. */
function outranks(a: Preference, b: Preference): boolean {
  return a.q > b.q || (a.q === b.q && a.specificity > b.specificity)
}

/** The weight `ranges` give `mediaType`: that of the most specific range matching it (the highest among equals), else 0. */
function preferenceOf(mediaType: string, ranges: readonly MediaRange[]): Preference {
  const [type, subtype] = mediaType.split('/') as [string, string]
  let found: Preference = { q: 0, specificity: Specificity.None }
  for (const range of ranges) {
    const specificity = specificityOf(range, type, subtype)
    if (specificity === Specificity.None) continue
    if (specificity > found.specificity || (specificity === found.specificity && range.q > found.q)) found = { q: range.q, specificity }
  }
  return found
}

function specificityOf(range: MediaRange, type: string, subtype: string): Specificity {
  if (range.type === '*' && range.subtype === '*') return Specificity.Any
  if (range.type !== type) return Specificity.None
  if (range.subtype === '*') return Specificity.Subtypes
  return range.subtype === subtype ? Specificity.Exact : Specificity.None
}

/** The `Accept` value of a request, or the value itself. */
const acceptValue = (accept: Request | string | null): string | null => (typeof accept === 'string' || accept === null ? accept : accept.headers.get('accept'))

/**
 * The media ranges of an `Accept` value, or `null` when there is none to read (no header, an empty one,
 * or nothing but malformed ranges): then any type is acceptable. A malformed range (no `/`, a weight that
 * is no qvalue: `q=`, `q=abc`, `q=1.5`) is left out, the others still count (RFC 9110 §12.4.2). Parameters other than `q` do not narrow the match:
 * the forms have none (`application/ld+json; profile=…` still names the JSON-LD form).
 */
function parseAccept(header: string | null): MediaRange[] | null {
  if (header === null) return null
  const ranges: MediaRange[] = []
  for (const element of splitOutsideQuotes(header, ',')) {
    const [name = '', ...parameters] = splitOutsideQuotes(element, ';').map((part) => part.trim())
    const match = /^([!#$%&'*+.^_`|~0-9a-z-]+)\/([!#$%&'*+.^_`|~0-9a-z-]+)$/i.exec(name)
    if (!match) continue
    const [type, subtype] = [match[1]!.toLowerCase(), match[2]!.toLowerCase()]
    if (type === '*' && subtype !== '*') continue
    let q = 1
    let valid = true
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=', 2).map((part) => part.trim())
      if (key.toLowerCase() !== 'q') continue
      // RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
      if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) valid = false
      else q = Number(value)
      // The weight ends the media range's parameters; anything after it is an accept extension.
      break
    }
    if (valid) ranges.push({ type, subtype, q })
  }
  return ranges.length > 0 ? ranges : null
}

/** `value` split at `separator`, except inside a quoted string (a parameter value may hold one). */
function splitOutsideQuotes(value: string, separator: ',' | ';'): string[] {
  const parts: string[] = []
  let current = ''
  let quoted = false
  for (let index = 0; index < value.length; index++) {
    const char = value[index]!
    if (quoted && char === '\\') {
      current += char + (value[index + 1] ?? '')
      index++
      continue
    }
    if (char === '"') quoted = !quoted
    if (char === separator && !quoted) {
      parts.push(current)
      current = ''
    } else {
      current += char
    }
  }
  parts.push(current)
  return parts.filter((part) => part.trim() !== '')
}
