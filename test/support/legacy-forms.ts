import assert from 'node:assert/strict'
import { type Api } from './api-harness.ts'
import { ORIGIN } from './origin.ts'
import type { Json } from './json.ts'

/**
 * Helpers for the legacy form-creation tests (docs/api.md §2.12, §4.13, §5 item 7, §7.5)
 * and the v1 tests that start from a legacy form: raw requests (the harness always adds the club
 * token, the legacy operation must also be called without any Authorization), designs to point at,
 * API keys, and the NestJS-shaped error answer.
 */

export const LEGACY_FORMS = '/open-api/achievements/forms'

export interface LegacyResponse {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON, or `undefined` when it does not parse. */
  body: Json
}

export interface LegacyRequest {
  /** The Authorization header as sent; `null` sends none. */
  authorization: string | null
  /** A string is sent as is (for bodies that are not JSON); anything else as JSON. */
  body?: unknown
  /** Defaults to `application/json`; `null` sends none. */
  contentType?: string | null
}

/** POST {legacy_base_url}/open-api/achievements/forms through the issuer's fetch handler. */
export async function legacyPost(api: Api, { authorization, body, contentType = 'application/json' }: LegacyRequest): Promise<LegacyResponse> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (authorization !== null) headers.authorization = authorization
  if (contentType !== null) headers['content-type'] = contentType
  const init: RequestInit = { method: 'POST', headers }
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
  const response = await api.issuer.fetch(new Request(`${ORIGIN}${LEGACY_FORMS}`, init))
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, text, body: parsed }
}

/** A legacy API key of the harness club, made as the CLI makes it. */
export async function newApiKey(api: Api, club = api.club): Promise<string> {
  return (await api.issuer.legacy.createApiKey(club)).api_key
}

/** A small SVG as base64, the image of a badge design. */
export function svgBase64(label = 'badge'): string {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><title>${label}</title><circle cx="32" cy="32" r="30"/></svg>`).toString(
    'base64',
  )
}

/** Creates a design through POST /v2/clubs/{club}/designs, asserting 201; returns its id. */
export async function createDesign(api: Api, kind: 'badge' | 'certificate', name = `${kind} design`): Promise<number> {
  const body = kind === 'badge' ? { kind, name, image: { mediaType: 'image/svg+xml', data: svgBase64(name) } } : { kind, name }
  const response = await api.call('POST', `/v2/clubs/${api.club}/designs`, body)
  assert.equal(response.status, 201, `design create answered ${response.status} ${JSON.stringify(response.body)}`)
  assert.equal(response.body.data.kind, kind)
  return response.body.data.id
}

/** The reason phrases of the statuses the legacy table uses (RFC 9110), as NestJS writes them. */
export const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  500: 'Internal Server Error',
}

/**
 * Asserts a legacy error answer: this status, a JSON body of exactly `{ statusCode, message, error }`
 * with `statusCode` equal to the HTTP status and `error` its reason phrase, and a message that starts
 * with `message` (a string) or matches it (a RegExp). No stack trace.
 */
export function assertLegacyError(response: { status: number; headers: Headers; text: string; body: Json }, status: number, message: string | RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status} ${response.text}`)
  assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/)
  assert.ok(response.body && typeof response.body === 'object' && !Array.isArray(response.body), `a JSON object body: ${response.text}`)
  assert.deepStrictEqual(Object.keys(response.body).sort(), ['error', 'message', 'statusCode'], `body shape: ${response.text}`)
  assert.equal(response.body.statusCode, status, 'statusCode echoes the HTTP status')
  assert.equal(response.body.error, REASON_PHRASES[status], 'error is the reason phrase')
  assert.equal(typeof response.body.message, 'string')
  if (typeof message === 'string')
    assert.ok(response.body.message.startsWith(message), `message ${JSON.stringify(response.body.message)} starts with ${JSON.stringify(message)}`)
  else assert.match(response.body.message, message)
  assert.doesNotMatch(response.text, /\bat .+:\d+:\d+/, 'no stack trace in the body')
}

/** The ids of every template of the club on v2, newest first. */
export async function templateIds(api: Api): Promise<number[]> {
  const ids: number[] = []
  let cursor: string | null = null
  do {
    const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100'
    const response = await api.call('GET', `/v2/clubs/${api.club}/achievements${query}`)
    assert.equal(response.status, 200, `template list answered ${response.status}`)
    ids.push(...response.body.data.map((item: { id: number }) => item.id))
    cursor = response.body.meta.nextCursor
  } while (cursor)
  return ids
}
