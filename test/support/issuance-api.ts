import assert from 'node:assert/strict'
import type { Api, ApiResponse } from './api-harness.ts'
import type { BatchResult } from '../../core/issuances/issue.ts'
import type { IssuanceDetail } from '../../core/issuances/present.ts'
import type { Json } from './json.ts'
import { aTemplate, create } from './achievement-api.ts'

/**
 * Helpers shared by the issuing tests that go through HTTP (test/http/issuances*.test.ts and the tests
 * here): paths, a template to issue, recipients, and lists read to their end.
 */

export const ISSUANCES = '/v2/clubs/chess/issuances'
export const EVENTS = '/v2/clubs/chess/events'

export const issuancePath = (id: number | string): string => `${ISSUANCES}/${id}`

/** Creates a template through HTTP and returns its id. */
export async function createTemplate(api: Api, overrides: Record<string, unknown> = {}): Promise<number> {
  return (await create(api, aTemplate(overrides))).id
}

/** `count` distinct recipients with externalUserId `<prefix>-<i>`. */
export function recipients(count: number, prefix = 'member'): { externalUserId: string; name: string; email: string }[] {
  return Array.from({ length: count }, (_, i) => ({ externalUserId: `${prefix}-${i}`, name: `Member ${prefix} ${i}`, email: `${prefix}.${i}@chess.example` }))
}

/** POST issuances. */
export function postIssuances(api: Api, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return api.call('POST', ISSUANCES, body, headers)
}

/** POST issuances, asserting 200; returns the batch result. */
export async function issue(api: Api, body: Record<string, unknown>): Promise<{ results: Json[]; summary: BatchResult['summary'] }> {
  const response = await postIssuances(api, body)
  assert.equal(response.status, 200, `issue answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

/** Every page of a cursor list, in order. */
export async function listAll(api: Api, path: string, limit = 100): Promise<Json[]> {
  const items: Json[] = []
  let cursor: string | null = null
  do {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) })
    const response = await api.call('GET', `${path}${path.includes('?') ? '&' : '?'}${query}`)
    assert.equal(response.status, 200, `${path} answered ${response.status} ${JSON.stringify(response.body)}`)
    items.push(...response.body.data)
    cursor = response.body.meta.nextCursor
  } while (cursor !== null)
  return items
}

/** The credential read, asserting 200. */
export async function readCredential(api: Api, issuanceId: number): Promise<{ id: string; format: string; jwt: string; payload: Json }> {
  const response = await api.call('GET', `${issuancePath(issuanceId)}/credential`)
  assert.equal(response.status, 200, `credential answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.data
}

/** The issuance detail, asserting 200. */
export async function readIssuance(api: Api, issuanceId: number): Promise<IssuanceDetail> {
  const response = await api.call('GET', issuancePath(issuanceId))
  assert.equal(response.status, 200, `detail answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.data
}

/** The club's credential keys, for `assertSignedCredential`. */
export function clubKeys(api: Api) {
  return api.keys.publicKeys(`club:${api.club}`)
}

/** Event subject ids of one type, in feed order. */
export function subjectsOf(events: { type: string; subject: { id: string } }[], type: string): string[] {
  return events.filter((event) => event.type === type).map((event) => event.subject.id)
}
