import assert from 'node:assert/strict'
import type { HttpResponse } from './server.ts'

/** Asserts an RFC 9457 problem document (docs/decisions/0007-http-face.md) with this status and code, and no stack trace. */
export function assertProblem(response: HttpResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.text)
  assert.equal(response.headers['content-type'], 'application/problem+json')
  assert.equal(response.json?.code, code, response.text)
  assert.equal(response.json.status, status)
  assert.equal(response.json.type, `https://clubcred.dev/problems/${code}`)
  assert.equal(typeof response.json.title, 'string')
  assert.equal(typeof response.json.detail, 'string')
  assert.match(response.json.requestId, /^[A-Za-z0-9._-]{1,128}$/, 'a problem names its request')
  assert.equal(response.json.requestId, response.headers['x-request-id'], 'the same request id as the X-Request-Id header')
  assert.ok(!/\bat .+:\d+:\d+/.test(response.text), 'no stack trace in the body')
}

/** 401 invalid-token with `WWW-Authenticate: Bearer ... error="invalid_token"`. */
export function assertInvalidToken(response: HttpResponse): void {
  assertProblem(response, 401, 'invalid-token')
  const challenge = response.headers['www-authenticate'] ?? ''
  assert.match(challenge, /^Bearer\b/)
  assert.match(challenge, /error="invalid_token"/)
}

/** An RFC 6749 §5.2 error body `{ error, error_description }` with this status, not cacheable. */
export function assertOAuthError(response: HttpResponse, status: number, error: string): void {
  assert.equal(response.status, status, response.text)
  assert.match(response.headers['content-type'] ?? '', /^application\/json\b/)
  assert.equal(response.headers['cache-control'], 'no-store')
  assert.equal(response.json?.error, error, response.text)
  assert.equal(typeof response.json?.error_description, 'string')
  assert.deepStrictEqual(Object.keys(response.json).sort(), ['error', 'error_description'])
}
