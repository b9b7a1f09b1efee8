import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ORIGIN } from '../../support/origin.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import { EVENTS, ISSUANCES, createTemplate, listAll, recipients } from '../../support/issuance-api.ts'

/**
 * Idempotency-Key on POST issuances (docs/decisions/0013-issuing.md), through HTTP: replays byte for byte,
 * key reuse with another body, concurrent repeats, key format, scoping per client, release on failure.
 */

let api: Api
let templateId: number
beforeEach(async () => {
  api = await openApi()
  templateId = await createTemplate(api)
})
afterEach(async () => {
  await api.close()
})

interface RawResponse {
  status: number
  headers: Headers
  text: string
}

/** POST issuances with an Idempotency-Key, keeping the body as text to compare bytes. */
async function post(body: unknown, key: string | null, token = api.token, path = ISSUANCES): Promise<RawResponse> {
  const response = await api.issuer.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key === null ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    }),
  )
  return { status: response.status, headers: response.headers, text: await response.text() }
}

function asProblem(response: RawResponse) {
  return { status: response.status, headers: response.headers, body: JSON.parse(response.text) }
}

const issuanceCount = async () => (await listAll(api, ISSUANCES)).length

describe('Idempotency-Key (docs/decisions/0013-issuing.md)', () => {
  it('the same key and body replays the first response byte for byte, marked Idempotent-Replayed, and issues nothing again', async () => {
    const body = { achievementFormId: templateId, recipients: recipients(3) }
    const first = await post(body, 'batch-2030-01-01')
    assert.equal(first.status, 200, first.text)
    assert.equal(first.headers.get('idempotent-replayed'), null, 'the first response is no replay')
    assert.equal(JSON.parse(first.text).summary.ok, 3)
    assert.equal(await issuanceCount(), 3)

    const second = await post(body, 'batch-2030-01-01')
    assert.equal(second.status, 200)
    assert.equal(second.headers.get('idempotent-replayed'), 'true')
    assert.equal(second.text, first.text, 'byte-identical body')
    assert.match(second.headers.get('content-type') ?? '', /^application\/json/)

    await api.issuer.worker.drain()
    const third = await post(body, 'batch-2030-01-01')
    assert.equal(third.text, first.text, 'still the first response after signing')
    assert.equal(await issuanceCount(), 3)
    const events = await listAll(api, EVENTS)
    assert.equal(events.filter((event) => event.type === 'issuance.issued').length, 3)
  })

  it('without a key, a repeat is a new request: its recipients are skipped as already issued', async () => {
    const body = { achievementFormId: templateId, recipients: recipients(2) }
    assert.equal((await post(body, null)).status, 200)
    const again = await post(body, null)
    assert.equal(again.headers.get('idempotent-replayed'), null)
    assert.deepStrictEqual(JSON.parse(again.text).summary, { total: 2, ok: 0, skipped: 2, failed: 0 })
  })

  it('the same key with another body is 422 idempotency-key-reused and issues nothing', async () => {
    assert.equal((await post({ achievementFormId: templateId, recipients: recipients(2, 'a') }, 'reused')).status, 200)
    const other = await post({ achievementFormId: templateId, recipients: recipients(2, 'b') }, 'reused')
    assertProblem(asProblem(other), 422, 'idempotency-key-reused')
    assert.equal(await issuanceCount(), 2)
  })

  it('20 concurrent requests with one key issue one batch; each answer is the result, a replay or 409 idempotency-in-flight', async () => {
    const body = { achievementFormId: templateId, recipients: recipients(10) }
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(body, 'concurrent')))
    const ok = responses.filter((response) => response.status === 200)
    const inFlight = responses.filter((response) => response.status === 409)
    assert.equal(ok.length + inFlight.length, 20, `statuses: ${responses.map((response) => response.status).join(' ')}`)
    assert.ok(ok.length >= 1)
    assert.equal(ok.filter((response) => response.headers.get('idempotent-replayed') === null).length, 1, 'exactly one first response')
    for (const response of ok) assert.equal(response.text, ok[0]!.text)
    for (const response of inFlight) assertProblem(asProblem(response), 409, 'idempotency-in-flight')
    assert.equal(JSON.parse(ok[0]!.text).summary.ok, 10)

    const items = await listAll(api, ISSUANCES)
    assert.equal(items.length, 10, 'one batch issued')
    assert.equal(new Set(items.map((item) => item.recipient.externalUserId)).size, 10)

    const replay = await post(body, 'concurrent')
    assert.equal(replay.headers.get('idempotent-replayed'), 'true')
    assert.equal(replay.text, ok[0]!.text)
  })

  it('a key of 1 to 255 printable characters is accepted; 256 characters is 422', async () => {
    const tooLong = await post({ achievementFormId: templateId, recipients: recipients(1, 'long') }, 'k'.repeat(256))
    const problem = assertProblem(asProblem(tooLong), 422, 'validation-failed')
    assert.deepStrictEqual(problem.errors, [{ message: 'invalid-idempotency-key', path: 'Idempotency-Key' }])
    assert.equal(await issuanceCount(), 0)

    assert.equal((await post({ achievementFormId: templateId, recipients: recipients(1, 'max') }, 'k'.repeat(255))).status, 200)
    assert.equal((await post({ achievementFormId: templateId, recipients: recipients(1, 'one') }, '~')).status, 200)
    assert.equal(await issuanceCount(), 2)
  })

  it('keys are per client: the same key from another client is a request of its own', async () => {
    const body = { achievementFormId: templateId, recipients: recipients(2, 'a') }
    const mine = await post(body, 'shared-key')
    const otherToken = await api.tokenWith(['issuance:write'])

    const theirsOtherBody = await post({ achievementFormId: templateId, recipients: recipients(2, 'b') }, 'shared-key', otherToken)
    assert.equal(theirsOtherBody.status, 200, 'not idempotency-key-reused')
    assert.equal(theirsOtherBody.headers.get('idempotent-replayed'), null)
    assert.equal(JSON.parse(theirsOtherBody.text).summary.ok, 2)

    const otherToken2 = await api.tokenWith(['issuance:write'])
    const theirsSameBody = await post(body, 'shared-key', otherToken2)
    assert.equal(theirsSameBody.status, 200)
    assert.equal(theirsSameBody.headers.get('idempotent-replayed'), null, 'not a replay of another client')
    assert.notEqual(theirsSameBody.text, mine.text)
    assert.deepStrictEqual(JSON.parse(theirsSameBody.text).summary, { total: 2, ok: 0, skipped: 2, failed: 0 })
    assert.equal(await issuanceCount(), 4)
  })

  it('a request that failed validation releases its key: the corrected body can use it', async () => {
    const broken = await post({ achievementFormId: templateId, recipients: [] }, 'fix-me')
    assertProblem(asProblem(broken), 422, 'validation-failed')
    const tooMany = await post({ achievementFormId: templateId, recipients: recipients(1001) }, 'fix-me')
    assertProblem(asProblem(tooMany), 422, 'too-many-recipients')
    const unknown = await post({ achievementFormId: templateId + 1, recipients: recipients(2) }, 'fix-me')
    assertProblem(asProblem(unknown), 404, 'achievement-not-found')

    const fixed = await post({ achievementFormId: templateId, recipients: recipients(2) }, 'fix-me')
    assert.equal(fixed.status, 200, fixed.text)
    assert.equal(fixed.headers.get('idempotent-replayed'), null)
    assert.equal(JSON.parse(fixed.text).summary.ok, 2)
    assert.equal((await post({ achievementFormId: templateId, recipients: recipients(2) }, 'fix-me')).headers.get('idempotent-replayed'), 'true')
  })

  it('a batch whose entries all failed is a 200 result, and replayed as such', async () => {
    const body = { achievementFormId: templateId, recipients: [{ name: 'Kim Minsu', email: 'nope' }] }
    const first = await post(body, 'all-failed')
    assert.equal(first.status, 200)
    const again = await post(body, 'all-failed')
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(again.text, first.text)
  })

  it('v1 bulk issue replays its first answer byte for byte, and the key is its own on v2', async () => {
    const member = recipients(1)[0]!
    const body = { formId: templateId, recipients: [member, member, { name: 'Kim Minsu', email: 'nope' }] }
    const first = await post(body, 'v1-spring', api.token, '/v1/achievements')
    assert.equal(first.status, 200, first.text)
    assert.deepEqual(
      (JSON.parse(first.text) as { failed: { error: { code: string } }[] }).failed.map((item) => item.error.code),
      ['duplicate-in-request', 'invalid-email'],
    )
    const again = await post(body, 'v1-spring', api.token, '/v1/achievements')
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(again.text, first.text, 'byte-identical body')
    assert.equal(await issuanceCount(), 1)
    const onV2 = await post({ achievementFormId: templateId, recipients: [member] }, 'v1-spring')
    assert.equal(onV2.headers.get('idempotent-replayed'), null)
    assert.equal((JSON.parse(onV2.text) as { results: { error: { code: string } }[] }).results[0]!.error.code, 'already-issued')
  })
})
