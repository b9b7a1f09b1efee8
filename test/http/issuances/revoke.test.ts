import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { assertProblem, assertValidation } from '../../support/achievement-api.ts'
import { openVerificationApi, type RawResponse, type VerificationApi } from '../../support/api-harness.ts'
import {
  clubPaths,
  createTemplate,
  credentialOf,
  detailOf,
  eventsOf,
  expectStatus,
  issueTo,
  members,
  statusEntryOf,
  verdictOf,
} from '../../support/verification-steps.ts'
import { fetchStatusList } from '../../support/verification-status-list.ts'

/**
 * Revoke (docs/api.md §3, §4.7; docs/decisions/0013-issuing.md § Idempotency-Key; docs/decisions/0010-lifecycle.md; docs/decisions/0003-scopes-per-operation.md): an optional
 * `{ reason }`, 200 with the issuance detail, one `issuance.revoked` event however often it is called,
 * replays under an Idempotency-Key, and a credential born revoked when revoked before signing.
 */

const paths = clubPaths()

let api: VerificationApi
let clock: TestClock
let templateId: number
beforeEach(async () => {
  clock = createTestClock()
  api = await openVerificationApi({ clock })
  templateId = await createTemplate(api)
})
afterEach(async () => {
  await api.close()
})

async function signed(count = 1, prefix = 'member'): Promise<number[]> {
  const ids = await issueTo(api, templateId, members(count, prefix))
  await api.issuer.worker.drain()
  return ids
}

const revoke = (id: number | string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
  api.call('POST', paths.revoke(id), body, headers)

const revokedEventsOf = async (id: number) => (await eventsOf(api, 'issuance.revoked')).filter((event) => event.subject.id === String(id))

describe('revoke answers 200 with the issuance detail', () => {
  it('status revoked, credential.status revoked, revokedAt now and revocationReason stored', async () => {
    const [id] = await signed()
    clock.advance(5000)
    const response = await revoke(id!, { reason: 'Left the club before the tournament.' })
    const detail = expectStatus(response, 200, 'revoke').data
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
    assert.equal(response.headers.get('idempotent-replayed'), null, 'not a replay')
    assert.equal(detail.id, id)
    assert.equal(detail.status, 'revoked')
    assert.equal(detail.credential.status, 'revoked')
    assert.equal(detail.revokedAt, new Date(clock.now()).toISOString())
    assert.equal(detail.revocationReason, 'Left the club before the tournament.')
    assert.deepStrictEqual(detail, await detailOf(api, id!), 'the same detail the read answers')
  })

  it('with no body at all, and with an empty object, the reason is null', async () => {
    const [a, b] = await signed(2)
    const bare = await api.call('POST', paths.revoke(a!)) // no body, no content-type
    assert.equal(expectStatus(bare, 200).data.revocationReason, null)
    assert.equal(expectStatus(await revoke(b!, {}), 200).data.revocationReason, null)
    assert.equal((await detailOf(api, a!)).status, 'revoked')
    assert.equal((await detailOf(api, b!)).status, 'revoked')
  })

  it('an empty body sent as application/json is no body', async () => {
    const [id] = await signed()
    const response = await api.call('POST', paths.revoke(id!), undefined, { 'content-type': 'application/json' })
    assert.equal(expectStatus(response, 200).data.status, 'revoked')
  })

  it('is idempotent: three revokes, one issuance.revoked event, the first reason and time kept', async () => {
    const [id, other] = await signed(2)
    const first = expectStatus(await revoke(id!, { reason: 'first' }), 200).data
    clock.advance(60_000)
    const second = expectStatus(await revoke(id!, { reason: 'second' }), 200).data
    clock.advance(60_000)
    const third = expectStatus(await revoke(id!), 200).data
    for (const detail of [second, third]) {
      assert.equal(detail.status, 'revoked')
      assert.equal(detail.revokedAt, first.revokedAt)
      assert.equal(detail.revocationReason, 'first')
    }
    const events = await revokedEventsOf(id!)
    assert.equal(events.length, 1)
    assert.deepEqual(events[0].subject, { type: 'issuance', id: String(id) })
    assert.equal(events[0].occurredAt, first.revokedAt)
    assert.equal((await revokedEventsOf(other!)).length, 0, 'nothing about the other issuance')
    assert.equal((await detailOf(api, other!)).status, 'valid')
  })
})

describe('concurrent revokes', () => {
  it('five at once: all 200 revoked, one event, one revokedAt', async () => {
    const [id] = await signed()
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => revoke(id!, { reason: `try ${i}` })))
    const details = answers.map((answer) => expectStatus(answer, 200).data)
    assert.ok(details.every((detail) => detail.status === 'revoked'))
    assert.equal(new Set(details.map((detail) => detail.revokedAt)).size, 1)
    assert.equal(new Set(details.map((detail) => detail.revocationReason)).size, 1)
    assert.equal((await revokedEventsOf(id!)).length, 1)
  })
})

describe('Idempotency-Key on revoke', () => {
  it('replays the first answer byte for byte with Idempotent-Replayed: true for 24 hours', async () => {
    const [id] = await signed()
    const headers = { 'idempotency-key': 'revoke-7f3a' }
    const first = await revoke(id!, { reason: 'cheating' }, headers)
    assert.equal(first.status, 200)
    assert.equal(first.headers.get('idempotent-replayed'), null)

    clock.advance(3_600_000) // an hour later (the harness renews its token)
    const again = await revoke(id!, { reason: 'cheating' }, headers)
    assert.equal(again.status, 200)
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(again.text, first.text, 'byte for byte')
    assert.match(again.headers.get('content-type') ?? '', /^application\/json/)
    assert.equal((await revokedEventsOf(id!)).length, 1)

    clock.advance(24 * 3_600_000) // the key is forgotten: the request runs again (and changes nothing)
    const later = await revoke(id!, { reason: 'cheating' }, headers)
    assert.equal(later.status, 200)
    assert.equal(later.headers.get('idempotent-replayed'), null)
    assert.equal(later.body.data.revokedAt, first.body.data.revokedAt)
    assert.equal((await revokedEventsOf(id!)).length, 1)
  })

  it('the same key with another body is 422 idempotency-key-reused; an invalid key is 422', async () => {
    const [id] = await signed()
    expectStatus(await revoke(id!, { reason: 'one' }, { 'idempotency-key': 'k1' }), 200)
    assertProblem(await revoke(id!, { reason: 'two' }, { 'idempotency-key': 'k1' }), 422, 'idempotency-key-reused')
    assertProblem(await revoke(id!, undefined, { 'idempotency-key': 'k1' }), 422, 'idempotency-key-reused')
    assertValidation(await revoke(id!, undefined, { 'idempotency-key': 'x'.repeat(256) }), [{ message: 'invalid-idempotency-key', path: 'Idempotency-Key' }])
  })

  it('a key is scoped to its issuance: the same key on another issuance revokes that one', async () => {
    const [a, b] = await signed(2)
    const headers = { 'idempotency-key': 'same-key' }
    const first = expectStatus(await revoke(a!, undefined, headers), 200).data
    const second = await revoke(b!, undefined, headers)
    assert.equal(second.headers.get('idempotent-replayed'), null)
    assert.equal(expectStatus(second, 200).data.id, b)
    assert.equal(first.id, a)
  })

  it('no body and an Idempotency-Key replay too', async () => {
    const [id] = await signed()
    const headers = { 'idempotency-key': 'bare' }
    const first = await revoke(id!, undefined, headers)
    const again = await revoke(id!, undefined, headers)
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(again.text, first.text)
  })
})

describe('a bad revoke body is a 4xx and revokes nothing', () => {
  it('an unknown member is 422; so are a non-string, an overlong reason and a non-object', async () => {
    const [id] = await signed()
    assertValidation(await revoke(id!, { reason: 'x', because: 'y' }), [{ message: 'unknown-field', path: 'because' }])
    assertProblem(await revoke(id!, { reason: 42 }), 422, 'validation-failed')
    assertProblem(await revoke(id!, { reason: 'x'.repeat(501) }), 422, 'validation-failed')
    assertProblem(await revoke(id!, []), 422, 'validation-failed')
    assertProblem(await revoke(id!, 'null'), 422, 'validation-failed')
    assertProblem(await revoke(id!, '{"reason":'), 400, 'invalid-json')
    assertProblem(await revoke(id!, 'reason=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported-media-type')
    assert.equal((await detailOf(api, id!)).status, 'valid')
    assert.equal((await revokedEventsOf(id!)).length, 0)
  })
})

describe('revoking before the credential exists', () => {
  it('is allowed, and the credential is born revoked: verdict revoked, status-list bit set', async () => {
    const [id, bystander] = await issueTo(api, templateId, members(2))
    const answer = expectStatus(await revoke(id!, { reason: 'issued by mistake' }), 200).data
    assert.equal(answer.status, 'revoked')
    assert.equal(answer.credential, null, 'no credential yet')
    assert.equal(answer.revocationReason, 'issued by mistake')
    assert.equal((await verdictOf(api, id!)).status, 404, 'nothing to verify yet')

    await api.issuer.worker.drain()
    const detail = await detailOf(api, id!)
    assert.equal(detail.status, 'revoked')
    assert.equal(detail.credential.status, 'revoked')
    const verdict = expectStatus(await verdictOf(api, id!), 200, 'verdict')
    assert.deepEqual([verdict.isValid, verdict.status], [true, 'revoked'])

    const { jwt } = await credentialOf(api, id!)
    const entry = statusEntryOf(jwt)
    const { list } = await fetchStatusList(api.get, entry.statusListCredential)
    assert.equal(list.getStatus(Number(entry.statusListIndex)), true, 'born revoked in the list')
    const bystanderEntry = statusEntryOf((await credentialOf(api, bystander!)).jwt)
    assert.equal(list.getStatus(Number(bystanderEntry.statusListIndex)), false)

    assert.equal((await revokedEventsOf(id!)).length, 1)
    const issuedEvents = (await eventsOf(api, 'issuance.credential_issued')).filter((event) => event.subject.id === String(id))
    assert.equal(issuedEvents.length, 1, 'the credential is still created once')
  })
})

describe('who may revoke what', () => {
  it('a token without issuance:revoke is 403 insufficient-scope and changes nothing', async () => {
    const [id] = await signed()
    const token = await api.tokenWith(['issuance:read', 'issuance:write', 'events:read'])
    const response = await api.call('POST', paths.revoke(id!), undefined, {}, { token })
    assertProblem(response, 403, 'insufficient-scope')
    assert.match(response.headers.get('www-authenticate') ?? '', /insufficient_scope/)
    assert.match(response.headers.get('www-authenticate') ?? '', /issuance:revoke/)
    assert.equal((await detailOf(api, id!)).status, 'valid')
    assert.equal((await revokedEventsOf(id!)).length, 0)

    const allowed = await api.tokenWith(['issuance:revoke'])
    assert.equal(expectStatus(await api.call('POST', paths.revoke(id!), undefined, {}, { token: allowed }), 200).data.status, 'revoked')
  })

  it('without a token it is 401 invalid-token', async () => {
    const [id] = await signed()
    assertProblem(await api.call('POST', paths.revoke(id!), undefined, {}, { token: null }), 401, 'invalid-token')
    assert.equal((await detailOf(api, id!)).status, 'valid')
  })

  it('another club’s issuance is 404 through this club, 403 club-forbidden through the other, and stays valid', async () => {
    await api.issuer.clubs.create({ domain: 'checkers', name: 'Checkers Club' })
    const template = await api.issuer.achievements.create('checkers', { name: 'Kings row', description: 'Crowned a king.' })
    const theirs = (await api.issuer.issuances.issue('checkers', { achievementFormId: template.id, mode: 'none', recipients: members(1, 'c') })).result
      .results[0] as { resourceId: number }
    await api.issuer.worker.drain()

    assertProblem(await revoke(theirs.resourceId), 404, 'issuance-not-found')
    assertProblem(await api.call('POST', clubPaths('checkers').revoke(theirs.resourceId)), 403, 'club-forbidden')
    assertProblem(await revoke(999_999), 404, 'issuance-not-found')
    assertProblem(await revoke('abc'), 404, 'issuance-not-found')
    const verdict = expectStatus(await verdictOf(api, theirs.resourceId), 200)
    assert.equal(verdict.status, 'valid')
    assert.equal((await api.issuer.issuances.read('checkers', theirs.resourceId)).status, 'valid')
  })
})
