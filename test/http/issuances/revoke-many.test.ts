import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { assertProblem, assertValidation } from '../../support/achievement-api.ts'
import { openVerificationApi, type RawResponse, type VerificationApi } from '../../support/api-harness.ts'
import { createTestClock } from '../../support/clock.ts'
import { clubPaths, createTemplate, credentialOf, detailOf, eventsOf, expectStatus, issueTo, members, statusEntryOf } from '../../support/verification-steps.ts'
import { fetchStatusList } from '../../support/verification-status-list.ts'

/**
 * Bulk revoke (docs/api.md §4.7b, docs/decisions/0045-resend-and-bulk-revoke.md): `POST …/issuances/revoke`
 * with `{ issuanceIds, reason }`, at most 1,000, in one unit; a result per id and the summary.
 *
 * @see docs/decisions/0045-resend-and-bulk-revoke.md
 */

const paths = clubPaths()
const revokeMany = (body: unknown, headers: Record<string, string> = {}, token?: string): Promise<RawResponse> =>
  api.call('POST', `${paths.issuances}/revoke`, body, headers, token === undefined ? {} : { token })

let api: VerificationApi
let templateId: number
beforeEach(async () => {
  api = await openVerificationApi({ clock: createTestClock() })
  templateId = await createTemplate(api)
})
afterEach(async () => {
  await api.close()
})

async function otherClubIssuance(): Promise<number> {
  await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
  const template = await api.issuer.achievements.create('go', { name: 'Go basics', description: 'Played a first game.' })
  const { result } = await api.issuer.issuances.issue('go', { achievementFormId: template.id, recipients: [{ name: 'Park', email: 'park@go.example' }] })
  return (result.results[0] as { resourceId: number }).resourceId
}

describe('bulk revoke', () => {
  it("revokes each id once with the reason, skips the revoked, fails another club's id; the status list a verifier decodes has exactly those bits", async () => {
    const ids = await issueTo(api, templateId, members(4))
    await api.issuer.worker.drain()
    const foreign = await otherClubIssuance()
    const body = expectStatus(await revokeMany({ issuanceIds: [ids[0], ids[1], foreign, ids[2]], reason: 'Wrong badge for the class' }), 200)
    assert.deepStrictEqual(body.results, [
      { ref: String(ids[0]), status: 'revoked', resourceId: ids[0], error: null },
      { ref: String(ids[1]), status: 'revoked', resourceId: ids[1], error: null },
      { ref: String(foreign), status: 'failed', error: { code: 'issuance-not-found', message: `There is no issuance ${foreign}.`, path: 'issuanceIds.2' } },
      { ref: String(ids[2]), status: 'revoked', resourceId: ids[2], error: null },
    ])
    assert.deepStrictEqual(body.summary, { total: 4, ok: 3, skipped: 0, failed: 1 })
    assert.equal((await detailOf(api, ids[0]!)).revocationReason, 'Wrong badge for the class')
    assert.equal((await api.issuer.issuances.read('go', foreign)).status, 'pending', "another club's issuance untouched")
    const revokedEvents = (await eventsOf(api, 'issuance.revoked')).map((event) => Number(event.subject.id)).sort()
    assert.deepStrictEqual(revokedEvents, ids.slice(0, 3).sort(), 'one issuance.revoked each')

    const entries = await Promise.all(ids.map(async (id) => statusEntryOf((await credentialOf(api, id)).jwt)))
    const { list } = await fetchStatusList(api.get, entries[0]!.statusListCredential)
    assert.deepStrictEqual(
      entries.map((entry) => list.getStatus(Number(entry.statusListIndex))),
      [true, true, true, false],
    )

    const again = expectStatus(await revokeMany({ issuanceIds: [ids[0], ids[3]] }), 200)
    assert.deepStrictEqual(
      again.results.map((item: { status: string }) => item.status),
      ['skipped', 'revoked'],
    )
    assert.deepStrictEqual(again.results[0].error, { code: 'already-revoked', message: `Issuance ${ids[0]} is already revoked.`, resourceId: ids[0] })
    assert.equal((await eventsOf(api, 'issuance.revoked')).length, 4, 'a skipped id emits nothing')
  })

  it('more than 1,000 ids is 422 too-many-issuances and a bad body 422 validation-failed, each revoking nothing', async () => {
    const [id] = await issueTo(api, templateId, members(1))
    assertProblem(await revokeMany({ issuanceIds: [id, ...Array.from({ length: 1000 }, (_, i) => i + 1)] }), 422, 'too-many-issuances')
    assertValidation(await revokeMany({ issuanceIds: [id, 'seven', 0] }), [
      { message: 'must-be-number', path: 'issuanceIds.1' },
      { message: 'must-be-positive', path: 'issuanceIds.2' },
    ])
    assertValidation(await revokeMany({ issuanceIds: [] }), [{ message: 'required', path: 'issuanceIds' }])
    assertValidation(await revokeMany({ issuanceIds: [id], reason: 'x'.repeat(501) }), [{ message: 'too-long', path: 'reason' }])
    assertValidation(await revokeMany({ issuanceIds: [id], extra: true }), [{ message: 'unknown-field', path: 'extra' }])
    assert.equal((await detailOf(api, id!)).status, 'pending')
    assert.deepStrictEqual(await eventsOf(api, 'issuance.revoked'), [])
  })

  it('1,000 ids are one call', async () => {
    const ids = await issueTo(api, templateId, members(1000))
    const body = expectStatus(await revokeMany({ issuanceIds: ids }), 200)
    assert.deepStrictEqual(body.summary, { total: 1000, ok: 1000, skipped: 0, failed: 0 })
  })

  it('an Idempotency-Key replays the first answer byte for byte; the key with another body is 422', async () => {
    const [a, b] = await issueTo(api, templateId, members(2))
    const first = await revokeMany({ issuanceIds: [a] }, { 'idempotency-key': 'bulk-1' })
    const replay = await revokeMany({ issuanceIds: [a] }, { 'idempotency-key': 'bulk-1' })
    assert.equal(replay.status, 200)
    assert.equal(replay.text, first.text)
    assert.equal(replay.headers.get('idempotent-replayed'), 'true')
    assert.equal(first.body.results[0].status, 'revoked', 'the replay did not become "skipped"')
    assertProblem(await revokeMany({ issuanceIds: [b] }, { 'idempotency-key': 'bulk-1' }), 422, 'idempotency-key-reused')
    assert.equal((await detailOf(api, b!)).status, 'pending')
  })

  it('needs the scope issuance:revoke', async () => {
    const [id] = await issueTo(api, templateId, members(1))
    assertProblem(await revokeMany({ issuanceIds: [id] }, {}, await api.tokenWith(['issuance:write'])), 403, 'insufficient-scope')
    assert.equal((await detailOf(api, id!)).status, 'pending')
  })
})
