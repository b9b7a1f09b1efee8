import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { assertSignedCredential } from '../../support/ob3-schema.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import {
  EVENTS,
  ISSUANCES,
  clubKeys,
  createTemplate,
  issue,
  listAll,
  postIssuances,
  readCredential,
  recipients,
  subjectsOf,
} from '../../support/issuance-api.ts'

/**
 * The batch rules of POST issuances (docs/api.md §2.9, §4.3, §7; docs/decisions/0013-issuing.md), through
 * HTTP: result shape, refs, skipped and failed items, the recipient limit, and what is stored.
 */

let api: Api
let clock: TestClock
let templateId: number
beforeEach(async () => {
  clock = createTestClock()
  api = await openApi({ clock })
  templateId = await createTemplate(api)
})
afterEach(async () => {
  await api.close()
})

/** Nothing issued: no issuance, no event. */
async function assertNothingStored(): Promise<void> {
  assert.deepStrictEqual(await listAll(api, ISSUANCES), [])
  assert.deepStrictEqual(await listAll(api, EVENTS), [])
  assert.equal(await api.storage.signingJobs.count(), 0)
}

describe('the batch result (docs/api.md §2.9)', () => {
  it('has one item per recipient and a summary; ref is externalUserId, else the index', async () => {
    const result = await issue(api, {
      achievementFormId: templateId,
      mode: 'none',
      recipients: [
        { externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' },
        { name: 'Lee Jiwoo', email: 'jiwoo@chess.example' },
        { externalUserId: '  u-3  ', name: 'Park Seoyeon', email: 'seoyeon@chess.example' },
      ],
    })
    assert.deepStrictEqual(Object.keys(result).sort(), ['results', 'summary'])
    assert.deepStrictEqual(result.summary, { total: 3, ok: 3, skipped: 0, failed: 0 })
    assert.deepStrictEqual(
      result.results.map((item) => item.ref),
      ['u-1', '1', 'u-3'],
    )
    for (const item of result.results) {
      assert.deepStrictEqual(Object.keys(item).sort(), ['error', 'ref', 'resourceId', 'status'])
      assert.equal(item.status, 'issued')
      assert.equal(item.error, null)
      assert.equal(typeof item.resourceId, 'number')
    }
    assert.equal(new Set(result.results.map((item) => item.resourceId)).size, 3)
  })

  it('issues each accepted recipient with its recipient data', async () => {
    const result = await issue(api, {
      achievementFormId: templateId,
      recipients: [{ externalUserId: 'u-1', name: ' Kim Minsu ', email: 'Minsu@Chess.example' }],
    })
    const items = await listAll(api, ISSUANCES)
    assert.equal(items.length, 1)
    assert.equal(items[0].id, result.results[0].resourceId)
    assert.equal(items[0].achievementId, templateId)
    assert.deepStrictEqual(items[0].recipient, { externalUserId: 'u-1', name: 'Kim Minsu', email: 'Minsu@Chess.example' })
  })
})

describe('skipped items (docs/decisions/0013-issuing.md)', () => {
  it('a repeat of an earlier entry in the request is skipped as duplicate-in-request, by externalUserId or e-mail', async () => {
    const result = await issue(api, {
      achievementFormId: templateId,
      recipients: [
        { externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' },
        { externalUserId: 'u-1', name: 'Kim Minsu again', email: 'other@chess.example' },
        { name: 'Lee Jiwoo', email: 'jiwoo@chess.example' },
        { name: 'Lee Jiwoo', email: 'JIWOO@chess.EXAMPLE' },
      ],
    })
    assert.deepStrictEqual(result.summary, { total: 4, ok: 2, skipped: 2, failed: 0 })
    assert.deepStrictEqual(
      result.results.map((item) => [item.ref, item.status, item.error?.code ?? null]),
      [
        ['u-1', 'issued', null],
        ['u-1', 'skipped', 'duplicate-in-request'],
        ['2', 'issued', null],
        ['3', 'skipped', 'duplicate-in-request'],
      ],
    )
    assert.equal((await listAll(api, ISSUANCES)).length, 2)
  })

  it('a recipient holding a pending issuance of the template is skipped as already-issued, by externalUserId', async () => {
    const first = await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    const again = await issue(api, {
      achievementFormId: templateId,
      recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'new-address@chess.example' }],
    })
    assert.deepStrictEqual(again.summary, { total: 1, ok: 0, skipped: 1, failed: 0 })
    assert.equal(again.results[0].status, 'skipped')
    assert.equal(again.results[0].ref, 'u-1')
    assert.equal(again.results[0].error.code, 'already-issued')
    assert.equal(typeof again.results[0].error.message, 'string')
    assert.equal(again.results[0].error.resourceId, first.results[0].resourceId)
    assert.equal((await listAll(api, ISSUANCES)).length, 1)
  })

  it('a recipient holding a signed issuance is skipped as already-issued too', async () => {
    await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    await api.issuer.worker.drain()
    const again = await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    assert.equal(again.results[0].error?.code, 'already-issued')
  })

  it('without externalUserId the e-mail decides, case-insensitively', async () => {
    await issue(api, { achievementFormId: templateId, recipients: [{ name: 'Lee Jiwoo', email: 'Jiwoo.Lee@Chess.example' }] })
    const again = await issue(api, {
      achievementFormId: templateId,
      recipients: [
        { name: 'Lee Jiwoo', email: 'jiwoo.lee@CHESS.EXAMPLE' },
        { name: 'Somebody else', email: 'someone@chess.example' },
      ],
    })
    assert.deepStrictEqual(
      again.results.map((item) => [item.status, item.error?.code ?? null]),
      [
        ['skipped', 'already-issued'],
        ['issued', null],
      ],
    )
  })

  it('an externalUserId not seen before is issued even when its e-mail holds the template', async () => {
    await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'shared@chess.example' }] })
    const again = await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-2', name: 'Kim Minji', email: 'shared@chess.example' }] })
    assert.equal(again.results[0].status, 'issued')
  })

  it('holding another template does not count', async () => {
    const other = await createTemplate(api, { name: 'Another badge' })
    await issue(api, { achievementFormId: other, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    const result = await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    assert.equal(result.results[0].status, 'issued')
  })

  it('an expired issuance does not count: the recipient is issued again', async () => {
    const expiresAt = new Date(clock.now() + 60_000).toISOString()
    await issue(api, { achievementFormId: templateId, expiresAt, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    const before = await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    assert.equal(before.results[0].error?.code, 'already-issued', 'still held before it expires')
    clock.advance(60_000)
    const after = await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    assert.equal(after.results[0].status, 'issued')
  })

  it('a revoked issuance does not count: the recipient is issued again', async () => {
    const first = await issue(api, { achievementFormId: templateId, recipients: [{ name: 'Kim Minsu', email: 'minsu@chess.example' }] })
    await api.storage.transaction((tx) => tx.issuances.revoke('chess', first.results[0].resourceId, clock.now(), null))
    const again = await issue(api, { achievementFormId: templateId, recipients: [{ name: 'Kim Minsu', email: 'MINSU@chess.example' }] })
    assert.equal(again.results[0].status, 'issued')
  })
})

describe('failed items (docs/decisions/0013-issuing.md; docs/api.md §7)', () => {
  it('a bad e-mail or an empty name fails with { code, message, path }, and the others are issued', async () => {
    const result = await issue(api, {
      achievementFormId: templateId,
      recipients: [
        { externalUserId: 'bad-mail', name: 'Kim Minsu', email: 'not-an-address' },
        { externalUserId: 'ok', name: 'Lee Jiwoo', email: 'jiwoo@chess.example' },
        { name: '   ', email: 'blank@chess.example' },
        { externalUserId: 'no-mail', name: 'Park Seoyeon' },
      ],
    })
    assert.deepStrictEqual(result.summary, { total: 4, ok: 1, skipped: 0, failed: 3 })
    const failed = result.results.filter((item) => item.status === 'failed')
    for (const item of failed) {
      assert.deepStrictEqual(Object.keys(item.error).sort(), ['code', 'message', 'path'])
      assert.equal(typeof item.error.message, 'string')
      assert.ok(item.error.message.length > 0)
      assert.equal('resourceId' in item, false, 'a failed item has no resourceId')
    }
    assert.deepStrictEqual(
      failed.map((item) => [item.ref, item.error.code, item.error.path]),
      [
        ['bad-mail', 'invalid-email', 'recipients.0.email'],
        ['2', 'required', 'recipients.2.name'],
        ['no-mail', 'required', 'recipients.3.email'],
      ],
    )
    assert.equal((await listAll(api, ISSUANCES)).length, 1)
  })

  it('an entry that is not an object fails with must-be-object; an unknown member with unknown-field', async () => {
    const result = await issue(api, {
      achievementFormId: templateId,
      recipients: [
        null,
        'kim@chess.example',
        ['Kim Minsu', 'minsu@chess.example'],
        { name: 'Kim Minsu', email: 'minsu@chess.example', phone: '010' },
        { name: 'Lee Jiwoo', email: 'jiwoo@chess.example', evidences: [null] },
        { name: 'Park Seoyeon', email: 'seoyeon@chess.example', evidences: [{ url: 'javascript:alert(1)', isPublic: true }] },
        { name: 'Choi Yuna', email: 'yuna@chess.example', evidences: [[]] },
      ],
    })
    assert.deepStrictEqual(
      result.results.map((item) => [item.ref, item.status, item.error.code, item.error.path]),
      [
        ['0', 'failed', 'must-be-object', 'recipients.0'],
        ['1', 'failed', 'must-be-object', 'recipients.1'],
        ['2', 'failed', 'must-be-object', 'recipients.2'],
        ['3', 'failed', 'unknown-field', 'recipients.3.phone'],
        ['4', 'failed', 'must-be-object', 'recipients.4.evidences.0'],
        ['5', 'failed', 'invalid-url', 'recipients.5.evidences.0.url'],
        ['6', 'failed', 'must-be-object', 'recipients.6.evidences.0'],
      ],
    )
    await assertNothingStored()
  })

  it('an expiresAt in the past fails the entry, or the request when it is the request default', async () => {
    const past = new Date(clock.now() - 1000).toISOString()
    const result = await issue(api, {
      achievementFormId: templateId,
      recipients: [
        { externalUserId: 'past', name: 'Kim Minsu', email: 'minsu@chess.example', expiresAt: past },
        { externalUserId: 'not-a-date', name: 'Lee Jiwoo', email: 'jiwoo@chess.example', expiresAt: 'next spring' },
        { externalUserId: 'ok', name: 'Park Seoyeon', email: 'seoyeon@chess.example', expiresAt: new Date(clock.now() + 1000).toISOString() },
      ],
    })
    assert.deepStrictEqual(
      result.results.map((item) => [item.ref, item.status, item.error?.code ?? null]),
      [
        ['past', 'failed', 'expires-at-in-past'],
        ['not-a-date', 'failed', 'invalid-date-time'],
        ['ok', 'issued', null],
      ],
    )
    const whole = await postIssuances(api, { achievementFormId: templateId, expiresAt: past, recipients: recipients(1) })
    assert.deepStrictEqual(assertProblem(whole, 422, 'validation-failed').errors, [{ message: 'expires-at-in-past', path: 'expiresAt' }])
    assert.equal((await listAll(api, ISSUANCES)).length, 1)
  })

  it('a batch where every entry fails stores nothing', async () => {
    const result = await issue(api, {
      achievementFormId: templateId,
      recipients: [
        { name: 'Kim Minsu', email: 'nope' },
        { name: '', email: 'jiwoo@chess.example' },
      ],
    })
    assert.deepStrictEqual(result.summary, { total: 2, ok: 0, skipped: 0, failed: 2 })
    await assertNothingStored()
  })
})

describe('request errors (docs/decisions/0007-http-face.md)', () => {
  it('1001 recipients is 422 too-many-recipients and stores nothing', async () => {
    const response = await postIssuances(api, { achievementFormId: templateId, recipients: recipients(1001) })
    assertProblem(response, 422, 'too-many-recipients')
    await assertNothingStored()
  })

  it('1000 recipients is the most one call takes', async () => {
    const result = await issue(api, { achievementFormId: templateId, recipients: recipients(1000) })
    assert.deepStrictEqual(result.summary, { total: 1000, ok: 1000, skipped: 0, failed: 0 })
  })

  it('an unknown template is 404 achievement-not-found', async () => {
    assertProblem(await postIssuances(api, { achievementFormId: templateId + 100, recipients: recipients(1) }), 404, 'achievement-not-found')
    await assertNothingStored()
  })

  it("another club's template is 404 achievement-not-found", async () => {
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const theirs = await api.issuer.achievements.create('go', { name: 'Go basics', description: 'Learned the rules.' })
    assertProblem(await postIssuances(api, { achievementFormId: theirs.id, recipients: recipients(1) }), 404, 'achievement-not-found')
    await assertNothingStored()
  })

  it('a club that may not issue gets 403 issuing-disabled', async () => {
    await api.issuer.clubs.setCanIssue('chess', false)
    assertProblem(await postIssuances(api, { achievementFormId: templateId, recipients: recipients(2) }), 403, 'issuing-disabled')
    await assertNothingStored()
  })

  it('a token without issuance:write gets 403 insufficient-scope', async () => {
    const token = await api.tokenWith(['issuance:read', 'events:read'])
    const response = await postIssuances(api, { achievementFormId: templateId, recipients: recipients(1) }, { authorization: `Bearer ${token}` })
    assertProblem(response, 403, 'insufficient-scope')
    await assertNothingStored()
  })

  it('a request without recipients, or with an unknown mode, is 422 validation-failed', async () => {
    assertProblem(await postIssuances(api, { achievementFormId: templateId, recipients: [] }), 422, 'validation-failed')
    assertProblem(await postIssuances(api, { achievementFormId: templateId, mode: 'pigeon', recipients: recipients(1) }), 422, 'validation-failed')
    assertProblem(await postIssuances(api, { achievementFormId: 'one', recipients: recipients(1) }), 422, 'validation-failed')
    await assertNothingStored()
  })
})

describe('events of a batch (docs/api.md §6)', () => {
  it('each accepted recipient gets issuance.issued, then issuance.credential_issued once signed', async () => {
    const result = await issue(api, {
      achievementFormId: templateId,
      recipients: [...recipients(5), { name: 'Broken', email: 'broken' }, recipients(1)[0]],
    })
    assert.deepStrictEqual(result.summary, { total: 7, ok: 5, skipped: 1, failed: 1 })
    const issuedIds = result.results.filter((item) => item.status === 'issued').map((item) => String(item.resourceId))

    const before = await listAll(api, EVENTS)
    assert.deepStrictEqual(subjectsOf(before, 'issuance.issued').sort(), [...issuedIds].sort())
    assert.deepStrictEqual(subjectsOf(before, 'issuance.credential_issued'), [])

    await api.issuer.worker.drain()
    const after = await listAll(api, EVENTS)
    assert.equal(after.length, 10)
    assert.deepStrictEqual(subjectsOf(after, 'issuance.credential_issued').sort(), [...issuedIds].sort())
    for (const event of after) assert.deepStrictEqual(event.subject.type, 'issuance')

    const keys = await clubKeys(api)
    for (const [i, item] of result.results.slice(0, 5).entries()) {
      await assertSignedCredential((await readCredential(api, item.resourceId)).jwt, { keys, email: recipients(5)[i]!.email })
    }
  })
})
