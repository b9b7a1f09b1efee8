/**
 * clubcred/client on an in-process issuer: `api.issuer.fetch` is the client's `fetch`, so every request
 * goes through the same HTTP face the server mounts, and the test sees each one.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, it } from 'node:test'
import type * as v from 'valibot'
import {
  ClubcredAuthError,
  ClubcredError,
  ClubcredTimeoutError,
  basicAuthorization,
  createClubcredClient,
  isProblem,
  type AchievementCreate,
  type AchievementPatch,
  type ClubcredClient,
  type ClubcredClientOptions,
  type DesignCreate,
  type DesignPatch,
  type IssueBody,
  type RecipientWrite,
} from '../../client/index.ts'
import type { templateCreateSchema, templatePatchSchema } from '../../core/achievements/schema.ts'
import type { designCreateSchema, designPatchSchema } from '../../core/designs/schema.ts'
import type { issueRequestSchema, recipientSchema } from '../../core/issuances/schema.ts'
import { openApi, type Api } from '../support/api-harness.ts'
import { ORIGIN } from '../support/origin.ts'
import { createTestClock, type TestClock } from '../support/clock.ts'

// The client's write shapes are accepted by the server's own schemas (checked when `tsc` runs). A
// `jsonObject` is a pipe of an is-object check and the strict object: its members are the object's.
type InputOf<Schema> = Schema extends { pipe: readonly [unknown, infer Inner extends v.GenericSchema, ...unknown[]] }
  ? v.InferInput<Inner>
  : Schema extends v.GenericSchema
    ? v.InferInput<Schema>
    : never
type Accepts<Schema, Body> = Body extends InputOf<Schema> ? true : never
const writeShapesFit: [
  Accepts<typeof templateCreateSchema, AchievementCreate>,
  Accepts<typeof templatePatchSchema, AchievementPatch>,
  Accepts<typeof issueRequestSchema, IssueBody>,
  Accepts<typeof recipientSchema, RecipientWrite>,
  Accepts<typeof designCreateSchema, DesignCreate>,
  Accepts<typeof designPatchSchema, DesignPatch>,
] = [true, true, true, true, true, true]

interface Sent {
  method: string
  path: string
  headers: Headers
  body: string | null
  status: number
}

let api: Api
let clock: TestClock
let sent: Sent[]
/** Set by a test to replace what the issuer answers (or throw, as a lost connection). */
let intercept: ((request: Request, forward: () => Promise<Response>) => Promise<Response>) | null

beforeEach(async () => {
  clock = createTestClock()
  api = await openApi({ clock })
  sent = []
  intercept = null
})
afterEach(async () => {
  await api.close()
})

async function recordingFetch(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const body = request.body === null ? null : await request.clone().text()
  const forward = () => api.issuer.fetch(request)
  const response = await (intercept ? intercept(request, forward) : forward())
  sent.push({ method: request.method, path: url.pathname + url.search, headers: request.headers, body, status: response.status })
  return response
}

async function newClient(options: Partial<ClubcredClientOptions> = {}): Promise<ClubcredClient> {
  const credentials = await api.issuer.clients.create({ club: api.club })
  return createClubcredClient({
    baseUrl: ORIGIN,
    clientId: credentials.client_id,
    clientSecret: credentials.client_secret,
    club: api.club,
    fetch: recordingFetch,
    clock,
    ...options,
  })
}

const tokenRequests = () => sent.filter((request) => request.path === '/oauth/token')
const members = (count: number, prefix = 'member') =>
  Array.from({ length: count }, (_, i) => ({ externalUserId: `${prefix}-${i}`, name: `Member ${i}`, email: `${prefix}.${i}@chess.example` }))

async function aTemplate(client: ClubcredClient, name = 'Opening theory'): Promise<number> {
  return (await client.achievements.create({ name, description: 'Knows twenty openings.' })).id
}

/** The issuance ids of a batch, asserting every item was issued. */
function issuedIds(result: { results: { status: string; ref: string; resourceId?: number }[] }): number[] {
  return result.results.map((item) => (item.status === 'issued' ? item.resourceId! : assert.fail(`${item.ref} was ${item.status}`)))
}

describe('problem documents as typed errors', () => {
  it('a missing issuance is a ClubcredError 404 issuance-not-found carrying the problem document', async () => {
    const client = await newClient()
    const error = await client.issuances.get(424242).then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    )
    assert.ok(error instanceof ClubcredError)
    assert.equal(error.status, 404)
    assert.equal(error.code, 'issuance-not-found')
    assert.equal(error.title, 'Issuance not found')
    assert.equal(error.detail, 'There is no issuance 424242.')
    assert.equal(error.errors, undefined)
    assert.equal(error.problem.status, 404)
    assert.match(error.problem.type, /issuance-not-found$/)
    assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/, 'the request id, to quote to the operator')
    assert.equal(error.name, 'ClubcredError')
    assert.ok(isProblem(error, 'issuance-not-found'))
    assert.ok(isProblem(error, ['achievement-not-found', 'issuance-not-found']))
    assert.ok(!isProblem(error, 'credential-pending'))
    assert.ok(!isProblem(new Error('x')))
  })

  it('a tag with a comma is 422 validation-failed whose errors[] name tag-contains-comma and its path', async () => {
    const client = await newClient()
    try {
      await client.achievements.create({ name: 'Tags', description: 'Has tags.', tag: ['ok', 'a,b'] })
      assert.fail('resolved')
    } catch (error) {
      if (!isProblem(error, 'validation-failed')) throw error
      // Narrowed: `errors` is typed.
      assert.equal(error.status, 422)
      assert.deepStrictEqual(error.errors, [{ message: 'tag-contains-comma', path: 'tag.1' }])
    }
    assert.deepStrictEqual((await client.achievements.list()).data, [], 'nothing was created')
  })

  it('reading a credential before it is signed is 409 credential-pending', async () => {
    const client = await newClient()
    const [id] = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(1) }))
    await assert.rejects(client.issuances.credential(id!), (error) => isProblem(error, 'credential-pending') && error.status === 409)
  })

  it('a missing template is 404 achievement-not-found, and a token without the scope is 403 insufficient-scope', async () => {
    const client = await newClient({ scopes: ['issuance:read'] })
    await assert.rejects(
      client.achievements.get(9),
      (error) => isProblem(error, 'insufficient-scope') && error.problem.scope === 'svc:openapi:achievements:read',
    )
    assert.equal(new URLSearchParams(tokenRequests()[0]!.body!).get('scope'), 'svc:openapi:issuance:read')
    const full = await newClient()
    await assert.rejects(full.achievements.get(9), (error) => isProblem(error, 'achievement-not-found') && error.status === 404)
  })

  it('a wrong secret is a ClubcredAuthError invalid_client 401 from the token endpoint', async () => {
    const credentials = await api.issuer.clients.create({ club: api.club })
    const client = createClubcredClient({ baseUrl: ORIGIN, clientId: credentials.client_id, clientSecret: 'wrong', club: api.club, fetch: recordingFetch })
    const error = await client.club().then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    )
    assert.ok(error instanceof ClubcredAuthError)
    assert.equal(error.error, 'invalid_client')
    assert.equal(error.status, 401)
    assert.equal(typeof error.description, 'string')
    assert.equal(sent.filter((request) => request.path.startsWith('/v2/')).length, 0, 'no API call without a token')
  })

  it('an error answer that is no problem document is unexpected-response with the start of the body', async () => {
    const client = await newClient()
    await client.club()
    intercept = async () => new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })
    await assert.rejects(client.club(), (error) => isProblem(error, 'unexpected-response') && error.status === 502 && error.detail.includes('Bad Gateway'))
  })
})

describe('Idempotency-Key on issue and revoke', () => {
  it('without a key, each issue sends its own fresh UUID: two calls are two batches, the second skipping who already holds it', async () => {
    const client = await newClient()
    const body = { achievementFormId: await aTemplate(client), recipients: members(3) }
    const first = await client.issuances.issue(body)
    const second = await client.issuances.issue(body)
    const keys = sent.filter((request) => request.path.endsWith('/issuances')).map((request) => request.headers.get('idempotency-key'))
    assert.equal(keys.length, 2)
    for (const key of keys) assert.match(key!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    assert.notEqual(keys[0], keys[1])
    assert.deepStrictEqual([first.idempotencyKey, second.idempotencyKey], keys)
    assert.equal(second.replayed, false)
    assert.deepStrictEqual(second.summary, { total: 3, ok: 0, skipped: 3, failed: 0 })
    assert.ok(second.results.every((item) => item.status === 'skipped' && item.error.code === 'already-issued'))
  })

  it('two issues with the same explicit key: the second is a replay of the first and issues nothing', async () => {
    const client = await newClient()
    const body = { achievementFormId: await aTemplate(client), recipients: members(4) }
    const first = await client.issuances.issue(body, { idempotencyKey: 'spring-batch-2030' })
    const second = await client.issuances.issue(body, { idempotencyKey: 'spring-batch-2030' })
    assert.equal(first.replayed, false)
    assert.equal(second.replayed, true)
    assert.deepStrictEqual(second.results, first.results)
    assert.equal(second.idempotencyKey, 'spring-batch-2030')
    let count = 0
    for await (const _ of client.issuances.all()) count += 1
    assert.equal(count, 4)
  })

  it('a lost response is sent again once with the same key, and the server replays it instead of issuing again', async () => {
    const client = await newClient()
    const templateId = await aTemplate(client)
    let lost = false
    intercept = async (request, forward) => {
      const response = await forward()
      if (request.url.endsWith('/issuances') && !lost) {
        lost = true
        throw new TypeError('fetch failed') // the batch was issued, the answer never arrived
      }
      return response
    }
    const result = await client.issuances.issue({ achievementFormId: templateId, recipients: members(2) })
    assert.equal(result.replayed, true)
    assert.deepStrictEqual(result.summary, { total: 2, ok: 2, skipped: 0, failed: 0 })
    const posts = sent.filter((request) => request.path.endsWith('/issuances'))
    assert.equal(posts.length, 1, 'the recorder saw the retry (the lost one threw before it recorded)')
    assert.equal(posts[0]!.headers.get('idempotency-key'), result.idempotencyKey)
    assert.equal((await client.issuances.list()).data.length, 2, 'issued once')
  })

  it('a write without a key (template create) is never sent again after a lost response', async () => {
    const client = await newClient()
    await client.club()
    let attempts = 0
    intercept = async (request, forward) => {
      if (request.method === 'POST') {
        attempts += 1
        await forward()
        throw new TypeError('fetch failed')
      }
      return forward()
    }
    await assert.rejects(client.achievements.create({ name: 'Once', description: 'Only once.' }), TypeError)
    assert.equal(attempts, 1)
  })

  it('revoke sends an automatic key and the reason; repeating an explicit key replays the first answer', async () => {
    const client = await newClient()
    const [id] = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(1) }))
    const detail = await client.issuances.revoke(id!, { reason: 'Duplicate account' })
    assert.equal(detail.status, 'revoked')
    assert.equal(detail.revocationReason, 'Duplicate account')
    const post = sent.find((request) => request.path.endsWith('/revoke'))!
    assert.match(post.headers.get('idempotency-key')!, /^[0-9a-f-]{36}$/)
    assert.deepStrictEqual(JSON.parse(post.body!), { reason: 'Duplicate account' })

    const [other] = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client, 'Second'), recipients: members(1, 'other') }))
    const once = await client.issuances.revoke(other!, { idempotencyKey: 'revoke-other' })
    clock.advance(5_000)
    const again = await client.issuances.revoke(other!, { idempotencyKey: 'revoke-other' })
    assert.deepStrictEqual(again, once)
    const bare = sent.filter((request) => request.path.endsWith(`/${other}/revoke`))
    assert.ok(
      bare.every((request) => request.body === null && request.headers.get('content-type') === null),
      'no body without a reason',
    )
  })
})

describe('access tokens', () => {
  it('concurrent calls share one token request', async () => {
    const client = await newClient()
    const roots = await Promise.all(Array.from({ length: 12 }, () => client.club()))
    assert.ok(roots.every((root) => root.domain === api.club))
    assert.equal(tokenRequests().length, 1)
  })

  it('the token is refreshed once less than 60 s of it remain, before the server would refuse it', async () => {
    const client = await newClient()
    await client.club()
    clock.advance(839_000) // 61 s left
    await client.club()
    assert.equal(tokenRequests().length, 1)
    clock.advance(2_000) // 59 s left
    await client.club()
    assert.equal(tokenRequests().length, 2)
    clock.advance(900_000) // the second token has run out too
    await client.club()
    assert.equal(tokenRequests().length, 3)
    assert.deepStrictEqual(
      sent.filter((request) => request.status >= 400),
      [],
      'never a 401',
    )
  })

  it('a token the server refuses (401 invalid-token) is replaced once, and the call succeeds', async () => {
    // The client's clock stands still while the server's runs past the token's expiry.
    const client = await newClient({ clock: () => 0 })
    await client.club()
    clock.advance(901_000)
    const root = await client.club()
    assert.equal(root.domain, api.club)
    assert.deepStrictEqual(
      sent.map((request) => `${request.path} ${request.status}`),
      ['/oauth/token 200', `/v2/clubs/${api.club}/ 200`, `/v2/clubs/${api.club}/ 401`, '/oauth/token 200', `/v2/clubs/${api.club}/ 200`],
    )
  })

  it('a 401 that persists with a fresh token is surfaced after one retry', async () => {
    const client = await newClient()
    intercept = async (request, forward) =>
      request.url.endsWith('/oauth/token')
        ? forward()
        : new Response(JSON.stringify({ type: 'x', title: 'Invalid access token', status: 401, detail: 'No.', code: 'invalid-token' }), {
            status: 401,
            headers: { 'content-type': 'application/problem+json' },
          })
    await assert.rejects(client.club(), (error) => isProblem(error, 'invalid-token'))
    assert.equal(tokenRequests().length, 2)
    assert.equal(sent.length, 4)
  })

  it('client id and secret are form-urlencoded before base64 (RFC 6749 §2.3.1), and the server decodes them', async () => {
    assert.equal(basicAuthorization('a:b+c', 'x y%é'), `Basic ${btoa('a%3Ab%2Bc:x+y%25%C3%A9')}`)
    const client = await newClient()
    await client.club()
    const token = tokenRequests()[0]!
    assert.match(token.headers.get('authorization')!, /^Basic [A-Za-z0-9+/]+=*$/)
    assert.equal(token.headers.get('content-type'), 'application/x-www-form-urlencoded')
    assert.deepStrictEqual(Object.fromEntries(new URLSearchParams(token.body!)), { grant_type: 'client_credentials' }, 'no scope: every scope the client holds')
  })

  it('the public verdict needs no token', async () => {
    const client = await newClient()
    const [id] = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(1) }))
    await api.issuer.worker.drain()
    sent = []
    const verdict = await client.verify(id!)
    assert.equal(verdict.statusCode, 200)
    assert.equal(verdict.isValid, true)
    assert.equal(verdict.status, 'valid')
    const missing = await client.verify(999_999)
    assert.equal(missing.statusCode, 404)
    assert.equal(missing.isValid, false)
    assert.deepStrictEqual(
      sent.map((request) => [request.path.split('/').at(-1), request.headers.get('authorization')]),
      [
        ['verify', null],
        ['verify', null],
      ],
    )
  })
})

describe('cursor lists', () => {
  it('all() follows meta.nextCursor with the page size asked for, 100 by default', async () => {
    const client = await newClient()
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five']) await aTemplate(client, name)
    sent = []
    const names: string[] = []
    for await (const template of client.achievements.all({ pageSize: 2 })) names.push(template.name)
    assert.deepStrictEqual(names, ['Five', 'Four', 'Three', 'Two', 'One'], 'newest first')
    assert.equal(sent.length, 3)
    assert.equal(new URL(sent[0]!.path, ORIGIN).searchParams.get('limit'), '2')
    assert.ok(sent.slice(1).every((request) => new URL(request.path, ORIGIN).searchParams.has('cursor')))

    sent = []
    let count = 0
    for await (const _ of client.achievements.all()) count += 1
    assert.equal(count, 5)
    assert.deepStrictEqual(
      sent.map((request) => request.path),
      [`/v2/clubs/${api.club}/achievements?limit=100`],
    )
  })

  it('issuances.all filters by template; events.all reads the feed; breaking out fetches no further page', async () => {
    const client = await newClient()
    const first = await aTemplate(client, 'First')
    const second = await aTemplate(client, 'Second')
    const ofFirst = issuedIds(await client.issuances.issue({ achievementFormId: first, recipients: members(5, 'a') }))
    await client.issuances.issue({ achievementFormId: second, recipients: members(3, 'b') })
    const seen: number[] = []
    for await (const issuance of client.issuances.all({ achievementId: first, pageSize: 2 })) seen.push(issuance.id)
    assert.deepStrictEqual(seen, [...ofFirst].reverse())

    const events: string[] = []
    for await (const event of client.events.all({ pageSize: 3 })) events.push(event.type)
    assert.deepStrictEqual(events, Array(8).fill('issuance.issued'))

    sent = []
    for await (const _ of client.issuances.all({ pageSize: 2 })) break
    assert.equal(sent.length, 1)
  })

  it('list() passes limit and cursor through, and a bad limit is 422', async () => {
    const client = await newClient()
    await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(3) })
    const page = await client.issuances.list({ limit: 2 })
    assert.equal(page.data.length, 2)
    assert.notEqual(page.meta.nextCursor, null)
    const rest = await client.issuances.list({ limit: 2, cursor: page.meta.nextCursor })
    assert.equal(rest.data.length, 1)
    assert.equal(rest.meta.nextCursor, null)
    await assert.rejects(
      client.issuances.list({ limit: 500 }),
      (error) => isProblem(error, 'validation-failed') && error.errors?.[0]?.message === 'invalid-limit',
    )
  })
})

describe('waiting for credentials on the event feed', () => {
  it('waitForCredential reads the feed until issuance.credential_issued appears, then reads the credential once', async () => {
    const client = await newClient()
    const [id] = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(1) }))
    sent = []
    let polls = 0
    intercept = async (request, forward) => {
      if (request.url.includes('/events') && ++polls === 3) await api.issuer.worker.drain() // signed between two polls
      return forward()
    }
    const credential = await client.waitForCredential(id!, { pollMs: 10, timeoutMs: 10_000 })
    assert.equal(credential.format, 'OB3_VC_JWT')
    assert.equal(credential.payload.jti, `urn:uuid:${credential.id}`)
    const paths = sent.map((request) => request.path.replace(/\?.*/, ''))
    assert.ok(polls >= 3)
    assert.deepStrictEqual(paths.slice(0, -1), Array(polls).fill(`/v2/clubs/${api.club}/events`), 'only the feed until the event')
    assert.equal(paths.at(-1), `/v2/clubs/${api.club}/issuances/${id}/credential`)
  })

  it('a credential signed before the wait began is found on the first poll, paging back past newer events', async () => {
    const client = await newClient()
    const templateId = await aTemplate(client)
    const [early] = issuedIds(await client.issuances.issue({ achievementFormId: templateId, recipients: members(1, 'early') }))
    await api.issuer.worker.drain()
    await client.issuances.issue({ achievementFormId: templateId, recipients: members(150, 'late') }) // 150 newer events, unsigned
    sent = []
    const [credential] = await client.waitForCredentials([early!], { pollMs: 10, timeoutMs: 5_000 })
    assert.equal(credential!.format, 'OB3_VC_JWT')
    assert.equal(sent.filter((request) => request.path.includes('/events')).length, 2, 'two pages of 100, one poll')
  })

  it('waitForCredentials waits for many with one read of the feed per poll, and answers in the order asked', async () => {
    const client = await newClient()
    const ids = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(12) }))
    const asked = [...ids].reverse()
    let polls = 0
    intercept = async (request, forward) => {
      if (request.url.includes('/events')) {
        polls += 1
        if (polls === 2) await api.issuer.worker.drain()
      }
      return forward()
    }
    const credentials = await client.waitForCredentials(asked, { pollMs: 10 })
    assert.equal(polls, 2, 'one feed read per poll, for all twelve')
    const reads = sent.filter((request) => request.path.endsWith('/credential')).map((request) => Number(request.path.split('/').at(-2)))
    assert.deepStrictEqual(new Set(reads), new Set(ids))
    assert.equal(reads.length, 12)
    for (const [index, credential] of credentials.entries()) {
      assert.equal(credential.id, (await api.issuer.issuances.read(api.club, asked[index]!)).credential?.id)
    }
  })

  it('gives up after timeoutMs with a ClubcredTimeoutError naming what is still pending', async () => {
    const client = await newClient()
    const ids = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(2) }))
    const started = performance.now()
    const error = await client.waitForCredentials(ids, { pollMs: 20, timeoutMs: 150 }).then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    )
    assert.ok(error instanceof ClubcredTimeoutError)
    assert.deepStrictEqual(error.pending, ids.map(String))
    assert.ok(performance.now() - started < 2_000)
    assert.equal(sent.filter((request) => request.path.endsWith('/credential')).length, 0)
  })

  it('stops when its signal aborts', async () => {
    const client = await newClient()
    const ids = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(1) }))
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('no longer needed')), 50)
    await assert.rejects(client.waitForCredential(ids[0]!, { pollMs: 1_000, signal: controller.signal }), /no longer needed/)
  })
})

describe('certificate files', () => {
  it('downloads the baked badge as bytes with its type and UTF-8 file name; before signing it is 409 credential-pending', async () => {
    const client = await newClient()
    const templateId = (await client.achievements.create({ name: '체스 입문', description: 'Beginners.' })).id
    const [id] = issuedIds(await client.issuances.issue({ achievementFormId: templateId, recipients: [{ name: '김민준', email: 'minjun@chess.example' }] }))
    await assert.rejects(client.issuances.file(id!, { format: 'png' }), (error) => isProblem(error, 'credential-pending'))
    await api.issuer.worker.drain()
    const png = await client.issuances.file(id!, { format: 'png' })
    assert.equal(png.contentType, 'image/png')
    assert.deepStrictEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    assert.match(png.filename ?? '', /김민준.* badge\.png$/, 'the UTF-8 filename* rather than the ASCII fallback')
    const svg = await client.issuances.file(id!, { format: 'svg' })
    assert.match(svg.contentType, /^image\/svg\+xml/)
    assert.match(new TextDecoder().decode(svg.bytes), /<openbadges:credential/)
    const disposition = sent.at(-1)!
    assert.equal(disposition.path, `/v2/clubs/${api.club}/issuances/${id}/file?format=svg`)
  })
})

describe('designs and templates', () => {
  it('designs are created, read, patched and listed', async () => {
    const client = await newClient()
    const design = await client.designs.create({ kind: 'certificate', name: 'Classic', layout: { orientation: 'portrait', primaryColor: '#224466' } })
    assert.equal(design.kind, 'certificate')
    assert.equal(design.layout?.orientation, 'portrait')
    assert.deepStrictEqual(await client.designs.get(design.id), design)
    const renamed = await client.designs.patch(design.id, { name: 'Modern' })
    assert.equal(renamed.name, 'Modern')
    assert.deepStrictEqual(
      (await client.designs.list()).data.map((item) => item.id),
      [design.id],
    )
    const all = []
    for await (const item of client.designs.all()) all.push(item.name)
    assert.deepStrictEqual(all, ['Modern'])
    await assert.rejects(client.designs.get(design.id + 1), (error) => isProblem(error, 'design-not-found'))
  })

  it('a template read can be sent back as a patch unchanged', async () => {
    const client = await newClient()
    const created = await client.achievements.create({
      name: 'Round trip',
      description: 'Sent back as read.',
      tag: ['a', 'b'],
      criteria: { requirements: [{ type: 'score', description: 'Score 80' }, { url: 'https://chess.example/course' }] },
      program: { name: 'Academy', url: 'https://chess.example', isPublic: true },
    })
    clock.advance(1_000)
    const patched = await client.achievements.patch(created.id, created)
    assert.equal(patched.criteria.narrative, created.criteria.narrative)
    assert.deepStrictEqual(patched.tag, created.tag)
    assert.deepStrictEqual(await client.achievements.get(created.id), patched)
  })
})

describe('the package surface', () => {
  it('client/ imports nothing of the server at run time: from outside client/ only types', () => {
    const folder = new URL('../../client/', import.meta.url)
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(new URL(file, folder), 'utf8')
      for (const match of source.matchAll(/^(import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gms)) {
        const [statement, , typeOnly, specifier] = match
        if (specifier!.startsWith('./')) continue
        assert.ok(typeOnly, `${file}: a value import of ${specifier}: ${statement}`)
      }
      assert.doesNotMatch(source, /\bimport\(/, `${file}: no dynamic imports`)
    }
  })

  it('is exported as clubcred/client', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    assert.deepStrictEqual(pkg.exports['./client'], { types: './dist/client/index.d.ts', default: './dist/client/index.js' })
    const script = "const m = await import('clubcred/client'); console.log(Object.keys(m).sort().join(' '))"
    const exported = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      encoding: 'utf8',
    })
    assert.deepStrictEqual(exported.trim().split(' '), [
      'ClubcredAuthError',
      'ClubcredError',
      'ClubcredTimeoutError',
      'basicAuthorization',
      'createClubcredClient',
      'isProblem',
    ])
    assert.ok(writeShapesFit.every(Boolean))
  })

  it('refuses missing options with a TypeError', () => {
    assert.throws(() => createClubcredClient({ baseUrl: ORIGIN, clientId: '', clientSecret: 's', club: 'c' }), TypeError)
    assert.throws(() => createClubcredClient(undefined as never), TypeError)
  })
})

describe('bulk revoke and resend', () => {
  it('revokeMany sends one keyed request and answers a result per id; notify answers the detail and is never retried on a lost response', async () => {
    const client = await newClient()
    const ids = issuedIds(await client.issuances.issue({ achievementFormId: await aTemplate(client), recipients: members(2) }))
    const result = await client.issuances.revokeMany([ids[0]!, 999_999_999], { reason: 'Wrong class', idempotencyKey: 'bulk-7' })
    assert.deepStrictEqual(result.summary, { total: 2, ok: 1, skipped: 0, failed: 1 })
    assert.equal(result.idempotencyKey, 'bulk-7')
    assert.equal(result.replayed, false)
    const request = sent.find((item) => item.path === '/v2/clubs/chess/issuances/revoke')!
    assert.equal(request.headers.get('idempotency-key'), 'bulk-7')
    assert.deepStrictEqual(JSON.parse(request.body!), { issuanceIds: [ids[0], 999_999_999], reason: 'Wrong class' })
    assert.equal((await client.issuances.revokeMany([ids[0]!, 999_999_999], { reason: 'Wrong class', idempotencyKey: 'bulk-7' })).replayed, true)

    const detail = await client.issuances.notify(ids[1]!)
    assert.equal(detail.id, ids[1])
    intercept = () => Promise.reject(new TypeError('fetch failed'))
    await assert.rejects(client.issuances.notify(ids[1]!))
    assert.equal(sent.filter((item) => item.path.endsWith('/notify')).length, 1, 'the lost one was not sent again')
  })
})
