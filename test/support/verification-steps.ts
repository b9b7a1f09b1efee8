/**
 * Steps of the verification tests, each through the HTTP API of `openVerificationApi`: create a
 * template, issue, read the detail, the credential, the verdict and the events.
 */
import assert from 'node:assert/strict'
import { decodeJwt } from 'jose'
import type { RawResponse, VerificationApi } from './api-harness.ts'
import type { Json } from './json.ts'

/** The club API paths of `club`. */
export function clubPaths(club = 'chess') {
  const issuances = `/v2/clubs/${club}/issuances`
  return {
    achievements: `/v2/clubs/${club}/achievements`,
    issuances,
    events: `/v2/clubs/${club}/events`,
    issuance: (id: number | string) => `${issuances}/${id}`,
    revoke: (id: number | string) => `${issuances}/${id}/revoke`,
    verify: (id: number | string) => `/open-badges/v3/achievements/${id}/verify`,
    jwt: (credentialId: string) => `/open-badges/v3/credentials/${credentialId}`,
    didDocument: `/open-badges/v3/issuers/${club}/did.json`,
    statusList: `/open-badges/v3/issuers/${club}/status-lists/revocation`,
  }
}

/** Asserts a status and returns the parsed body. */
export function expectStatus(response: RawResponse, status: number, what = 'request'): Json {
  assert.equal(response.status, status, `${what} answered ${response.status} ${response.text}`)
  return response.body
}

/** Creates a template through HTTP and returns its id. */
export async function createTemplate(api: VerificationApi, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await api.call('POST', clubPaths(api.club).achievements, {
    name: 'Opening theory',
    description: 'Studied the main openings.',
    tag: ['chess', 'openings'],
    ...overrides,
  })
  return expectStatus(response, 201, 'template create').data.id
}

export interface Recipient {
  externalUserId: string
  name: string
  email: string
  expiresAt?: string
}

/** `count` distinct recipients, each with a name and an e-mail that appear nowhere else. */
export function members(count: number, prefix = 'member'): Recipient[] {
  return Array.from({ length: count }, (_, i) => ({
    externalUserId: `${prefix}-${i}`,
    name: `Magnus ${prefix} Carlsen ${i}`,
    email: `${prefix}.${i}@members.chess.example`,
  }))
}

/** POST issuances (mode none), asserting every recipient was issued; returns the issuance ids in order. */
export async function issueTo(api: VerificationApi, templateId: number, recipients: Recipient[], extra: Record<string, unknown> = {}): Promise<number[]> {
  const response = await api.call('POST', clubPaths(api.club).issuances, { achievementFormId: templateId, mode: 'none', recipients, ...extra })
  const body = expectStatus(response, 200, 'issue')
  assert.equal(body.summary.ok, recipients.length, `issue: ${response.text}`)
  return body.results.map((item: { resourceId: number }) => item.resourceId)
}

/** The issuance detail, asserting 200. */
export async function detailOf(api: VerificationApi, id: number): Promise<Json> {
  return expectStatus(await api.call('GET', clubPaths(api.club).issuance(id)), 200, 'issuance detail').data
}

/** The issuance list item of `id` (reads the first page of 100). */
export async function listItemOf(api: VerificationApi, id: number): Promise<Json> {
  const body = expectStatus(await api.call('GET', `${clubPaths(api.club).issuances}?limit=100`), 200, 'issuance list')
  const item = body.data.find((candidate: { id: number }) => candidate.id === id)
  assert.ok(item, `issuance ${id} is in the list`)
  return item
}

/** The public verdict (no Authorization header). */
export async function verdictOf(api: VerificationApi, id: number | string): Promise<RawResponse> {
  return api.get(clubPaths(api.club).verify(id))
}

/** The credential read, asserting 200. */
export async function credentialOf(api: VerificationApi, id: number): Promise<{ id: string; format: string; jwt: string; payload: Json }> {
  return expectStatus(await api.call('GET', `${clubPaths(api.club).issuance(id)}/credential`), 200, 'credential read').data
}

/** The `credentialStatus` entry of a signed credential. */
export function statusEntryOf(jwt: string): { id: string; type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string } {
  const status = decodeJwt<{ vc: Json }>(jwt).vc.credentialStatus
  return Array.isArray(status) ? status[0] : status
}

/** Events of the club of one type, whole feed. */
export async function eventsOf(api: VerificationApi, type: string): Promise<Json[]> {
  const events: Json[] = []
  let cursor: string | null = null
  do {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) })
    const body = expectStatus(await api.call('GET', `${clubPaths(api.club).events}?${query}`), 200, 'events')
    events.push(...body.data)
    cursor = body.meta.nextCursor
  } while (cursor !== null)
  return events.filter((event) => event.type === type)
}
