import assert from 'node:assert/strict'
import type { ProblemDocument } from '../../client/errors.ts'
import type { TemplateView } from '../../core/achievements/present.ts'
import type { Api, ApiResponse } from './api-harness.ts'

/**
 * Helpers shared by the template tests that go through HTTP (test/http/achievements*.test.ts and the
 * property tests here): paths, problem assertions and "nothing changed" snapshots.
 */

export const ACHIEVEMENTS = '/v2/clubs/chess/achievements'

export const templatePath = (id: number | string): string => `${ACHIEVEMENTS}/${id}`

/** A minimal valid create body, with overrides. */
export function aTemplate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Opening theory', description: 'Studied the main openings.', ...overrides }
}

/** Asserts an RFC 9457 problem answer (docs/decisions/0007-http-face.md) and returns its body. */
export function assertProblem(response: ApiResponse, status: number, code: string): ProblemDocument {
  assert.equal(response.status, status, `expected ${status} ${code}, got ${response.status} ${JSON.stringify(response.body)}`)
  assert.equal(response.headers.get('content-type'), 'application/problem+json')
  assert.equal(response.body.code, code)
  assert.equal(response.body.status, status)
  assert.equal(typeof response.body.type, 'string')
  assert.ok(response.body.type.endsWith(`/${code}`), `type ${response.body.type} names ${code}`)
  return response.body
}

/** Asserts 422 `validation-failed` whose `errors[]` is exactly this list. */
export function assertValidation(response: ApiResponse, errors: { message: string; path: string }[]): void {
  const body = assertProblem(response, 422, 'validation-failed')
  assert.deepEqual(body.errors, errors)
}

/** Creates a template through HTTP, asserting 201, and returns the detail as saved. */
export async function create(api: Api, body: Record<string, unknown> = aTemplate()): Promise<TemplateView> {
  const response = await api.call('POST', ACHIEVEMENTS, body)
  assert.equal(response.status, 201, `create answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.data
}

/** Patches a template through HTTP, asserting 200, and returns the detail as saved. */
export async function patch(api: Api, id: number, body: unknown): Promise<TemplateView> {
  const response = await api.call('PATCH', templatePath(id), body)
  assert.equal(response.status, 200, `patch answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.data
}

/** Reads a template through HTTP, asserting 200. */
export async function read(api: Api, id: number): Promise<TemplateView> {
  const response = await api.call('GET', templatePath(id))
  assert.equal(response.status, 200, `read answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.data
}

/** Every template of the club, newest first, following the cursor. */
export async function listAll(api: Api): Promise<TemplateView[]> {
  const items: TemplateView[] = []
  let cursor: string | null = null
  do {
    const query: string = cursor ? `?limit=100&cursor=${encodeURIComponent(cursor)}` : '?limit=100'
    const response = await api.call('GET', `${ACHIEVEMENTS}${query}`)
    assert.equal(response.status, 200)
    items.push(...response.body.data)
    cursor = response.body.meta.nextCursor
  } while (cursor)
  return items
}

/** Asserts that a write was refused and changed nothing: the template reads as before. */
export async function assertUnchanged(api: Api, id: number, before: TemplateView): Promise<void> {
  assert.deepEqual(await read(api, id), before)
}
