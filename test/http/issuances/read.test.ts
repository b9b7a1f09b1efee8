import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { openApi, type Api } from '../../support/api-harness.ts'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { assertSignedCredential } from '../../support/ob3-schema.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import {
  EVENTS,
  ISSUANCES,
  clubKeys,
  createTemplate,
  issuancePath,
  issue,
  listAll,
  readCredential,
  readIssuance,
  recipients,
} from '../../support/issuance-api.ts'
import type { Json } from '../../support/json.ts'

/**
 * Reading what was issued (docs/api.md §2.6 to §2.8, §2.10, §4.4, §4.5, §4.8, §4.9, §6; docs/decisions/0009-lists.md;
 * docs/decisions/0010-lifecycle.md): the issuance list, the detail with its credential pointer, the credential
 * and the event feed, before and after signing.
 */

let api: Api
let clock: TestClock
let templateId: number
beforeEach(async () => {
  clock = createTestClock()
  api = await openApi({ clock })
  templateId = await createTemplate(api, {
    name: '체스 입문',
    nameEn: 'Chess basics',
    description: '기본 규칙을 배웠습니다.',
    descriptionEn: 'Learned the rules.',
    criteria: {
      requirements: [
        { type: 'course_complete', description: 'Finish the course' },
        { type: 'score', description: 'Score 80 or more', url: 'https://chess.example/exam' },
      ],
    },
  })
})
afterEach(async () => {
  await api.close()
})

describe('the issuance list (docs/api.md §4.4, docs/decisions/0009-lists.md)', () => {
  it('items carry achievementId and a credentialId that is null until the credential exists', async () => {
    const result = await issue(api, { achievementFormId: templateId, recipients: recipients(3) })
    const ids = result.results.map((item) => item.resourceId)

    const before = await listAll(api, ISSUANCES)
    assert.deepStrictEqual(
      before.map((item) => item.id),
      [...ids].reverse(),
      'newest first',
    )
    for (const item of before) {
      assert.equal(item.achievementId, templateId)
      assert.equal(item.credentialId, null)
    }

    await api.issuer.worker.drain()
    const after = await listAll(api, ISSUANCES)
    for (const item of after) {
      assert.match(item.credentialId, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      assert.equal((await readCredential(api, item.id)).id, item.credentialId, 'the list names the credential the read returns')
    }
    assert.equal(new Set(after.map((item) => item.credentialId)).size, 3)
  })

  it('pages with limit and cursor, newest first, and ends with nextCursor null', async () => {
    const issued = await issue(api, { achievementFormId: templateId, recipients: recipients(5) })
    const first = await api.call('GET', `${ISSUANCES}?limit=2`)
    assert.equal(first.status, 200)
    assert.equal(first.body.data.length, 2)
    assert.equal(typeof first.body.meta.nextCursor, 'string')
    const second = await api.call('GET', `${ISSUANCES}?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`)
    const third = await api.call('GET', `${ISSUANCES}?limit=2&cursor=${encodeURIComponent(second.body.meta.nextCursor)}`)
    assert.equal(third.body.data.length, 1)
    assert.equal(third.body.meta.nextCursor, null)
    const ids = [...first.body.data, ...second.body.data, ...third.body.data].map((item: { id: number }) => item.id)
    // Newest first is the reverse of issue order (ids are random, so their size says nothing).
    assert.deepStrictEqual(ids, issued.results.map((item: { resourceId: number }) => item.resourceId).reverse())
    assert.equal(new Set(ids).size, 5)
  })

  it('filters by achievementId', async () => {
    const other = await createTemplate(api, { name: 'Tournament' })
    await issue(api, { achievementFormId: templateId, recipients: recipients(2, 'a') })
    await issue(api, { achievementFormId: other, recipients: recipients(3, 'b') })
    const mine = await listAll(api, `${ISSUANCES}?achievementId=${templateId}`)
    const theirs = await listAll(api, `${ISSUANCES}?achievementId=${other}`)
    assert.deepStrictEqual(
      mine.map((item) => item.achievementId),
      [templateId, templateId],
    )
    assert.deepStrictEqual(
      theirs.map((item) => item.achievementId),
      [other, other, other],
    )
    assert.equal((await listAll(api, ISSUANCES)).length, 5)
  })

  it('bad list parameters are 422 validation-failed', async () => {
    assertProblem(await api.call('GET', `${ISSUANCES}?limit=0`), 422, 'validation-failed')
    assertProblem(await api.call('GET', `${ISSUANCES}?limit=101`), 422, 'validation-failed')
    assertProblem(await api.call('GET', `${ISSUANCES}?cursor=garbage`), 422, 'validation-failed')
    assertProblem(await api.call('GET', `${ISSUANCES}?achievementId=x`), 422, 'validation-failed')
  })
})

describe('the issuance detail (docs/api.md §2.6, §2.7, §4.5)', () => {
  it('holds the recipient, the form as issued, the evidences and a credential pointer that is null before signing', async () => {
    const [item] = (
      await issue(api, {
        achievementFormId: templateId,
        recipients: [
          {
            externalUserId: 'u-1',
            name: 'Kim Minsu',
            email: 'minsu@chess.example',
            evidences: [
              { url: 'https://chess.example/game', name: 'Game', isPublic: true },
              { url: 'https://chess.example/private', isPublic: false },
            ],
          },
        ],
      })
    ).results
    const detail = await readIssuance(api, item.resourceId)
    assert.equal(detail.id, item.resourceId)
    assert.equal(detail.achievementId, templateId)
    assert.equal(detail.credentialId, null)
    assert.equal(detail.credential, null)
    assert.deepStrictEqual(detail.recipient, { externalUserId: 'u-1', name: 'Kim Minsu', email: 'minsu@chess.example' })
    assert.equal(detail.form.name, '체스 입문')
    assert.equal(detail.form.nameEn, 'Chess basics')
    assert.equal(detail.form.descriptionEn, 'Learned the rules.')
    assert.deepStrictEqual(
      detail.form.requirements.map((requirement) => requirement.description),
      ['Finish the course', 'Score 80 or more'],
    )
    for (const requirement of detail.form.requirements) assert.equal(typeof requirement.id, 'number')
    assert.deepStrictEqual(detail.evidences, [
      { url: 'https://chess.example/game', name: 'Game', description: null, isPublic: true },
      { url: 'https://chess.example/private', name: null, description: null, isPublic: false },
    ])
    assertProblem(await api.call('GET', `${issuancePath(item.resourceId)}/credential`), 409, 'credential-pending')
  })

  it('after signing, the pointer is { id, format, status, issuedAt, shareUrl, verifyUrl, jwtUrl }', async () => {
    const [item] = (await issue(api, { achievementFormId: templateId, recipients: recipients(1) })).results
    clock.advance(1500)
    await api.issuer.worker.drain()
    const detail = await readIssuance(api, item.resourceId)
    const pointer = detail.credential!
    assert.deepStrictEqual(Object.keys(pointer).sort(), ['format', 'id', 'issuedAt', 'jwtUrl', 'shareUrl', 'status', 'verifyUrl'])
    assert.equal(pointer.id, detail.credentialId)
    assert.equal(pointer.format, 'OB3_VC_JWT')
    assert.equal(pointer.status, 'valid')
    assert.equal(pointer.issuedAt, new Date(Math.floor(clock.now() / 1000) * 1000).toISOString())
    assert.equal(pointer.shareUrl, `http://chess.localhost:8787/credentials/${pointer.id}`)
    assert.equal(pointer.verifyUrl, `http://localhost:8787/open-badges/v3/achievements/${item.resourceId}/verify`)
    assert.equal(pointer.jwtUrl, `http://localhost:8787/open-badges/v3/credentials/${pointer.id}`)

    const credential = await readCredential(api, item.resourceId)
    assert.equal(credential.id, pointer.id, 'the pointer id is the id inside the credential')
    const checked = await assertSignedCredential(credential.jwt, { keys: await clubKeys(api), email: recipients(1)[0]!.email })
    assert.equal(checked.vc.id, `urn:uuid:${pointer.id}`)
    assert.equal(checked.vc.validFrom, pointer.issuedAt.replace('.000Z', 'Z'))
  })

  it('the pointer status is expired once validUntil passes, and revoked wins over expired', async () => {
    const expiresAt = new Date(clock.now() + 600_000).toISOString()
    const [item] = (await issue(api, { achievementFormId: templateId, expiresAt, recipients: recipients(1) })).results
    await api.issuer.worker.drain()
    assert.equal((await readIssuance(api, item.resourceId)).credential!.status, 'valid')
    clock.advance(600_000)
    assert.equal((await readIssuance(api, item.resourceId)).credential!.status, 'expired')
    assert.equal((await listAll(api, ISSUANCES))[0].status, 'expired')
    await api.storage.transaction((tx) => tx.issuances.revoke('chess', item.resourceId, clock.now(), 'test'))
    assert.equal((await readIssuance(api, item.resourceId)).credential!.status, 'revoked')
  })
})

describe('the credential read (docs/api.md §2.8, §4.8)', () => {
  it('is 409 credential-pending before the credential exists, then { id, format, jwt, payload }', async () => {
    const [item] = (await issue(api, { achievementFormId: templateId, recipients: recipients(1) })).results
    const pending = await api.call('GET', `${issuancePath(item.resourceId)}/credential`)
    const problem = assertProblem(pending, 409, 'credential-pending')
    assert.equal(typeof problem.detail, 'string')

    await api.issuer.worker.drain()
    const response = await api.call('GET', `${issuancePath(item.resourceId)}/credential`)
    assert.equal(response.status, 200)
    assert.deepStrictEqual(Object.keys(response.body), ['data'])
    const credential = response.body.data
    assert.deepStrictEqual(Object.keys(credential).sort(), ['format', 'id', 'jwt', 'payload'])
    assert.equal(credential.format, 'OB3_VC_JWT')
    assert.deepStrictEqual(credential.payload, decodeJwt(credential.jwt), 'payload is the decoded JWT')
    assert.equal(credential.id, (await readIssuance(api, item.resourceId)).credential!.id)
    await assertSignedCredential(credential.jwt, { keys: await clubKeys(api), email: recipients(1)[0]!.email })
  })

  it('returns the same JWT on every read', async () => {
    const [item] = (await issue(api, { achievementFormId: templateId, recipients: recipients(1) })).results
    await api.issuer.worker.drain()
    const first = await readCredential(api, item.resourceId)
    clock.advance(10_000)
    await api.issuer.worker.drain()
    assert.equal((await readCredential(api, item.resourceId)).jwt, first.jwt)
  })
})

describe('the event feed (docs/api.md §2.10, §4.9, §6)', () => {
  it('lists events newest first, pages with a cursor and ends with nextCursor null', async () => {
    const ids = (await issue(api, { achievementFormId: templateId, recipients: recipients(3) })).results.map((item) => String(item.resourceId))
    clock.advance(2000)
    await api.issuer.worker.drain()

    const pages: Json[][] = []
    let cursor: string | null = null
    do {
      const response = await api.call('GET', `${EVENTS}?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      assert.equal(response.status, 200)
      assert.deepStrictEqual(Object.keys(response.body).sort(), ['data', 'meta'])
      pages.push(response.body.data)
      cursor = response.body.meta.nextCursor
    } while (cursor !== null)
    assert.deepStrictEqual(
      pages.map((page) => page.length),
      [4, 2],
    )
    const events = pages.flat()
    for (const event of events) {
      assert.deepStrictEqual(Object.keys(event).sort(), ['id', 'occurredAt', 'subject', 'type'])
      assert.equal(typeof event.id, 'string')
      assert.match(event.occurredAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      assert.deepStrictEqual(Object.keys(event.subject).sort(), ['id', 'type'])
      assert.equal(event.subject.type, 'issuance')
    }
    const numeric = events.map((event) => Number(event.id))
    assert.deepStrictEqual(
      numeric,
      [...numeric].sort((a, b) => b - a),
      'newest first',
    )
    assert.deepStrictEqual(
      events.map((event) => [event.type, event.subject.id]),
      [...[...ids].reverse().map((id) => ['issuance.credential_issued', id]), ...[...ids].reverse().map((id) => ['issuance.issued', id])],
    )
    assert.ok(Date.parse(events[0].occurredAt) > Date.parse(events.at(-1).occurredAt))
  })

  it('an empty feed is { data: [], meta: { nextCursor: null } }', async () => {
    const response = await api.call('GET', EVENTS)
    assert.equal(response.status, 200)
    assert.deepStrictEqual(response.body, { data: [], meta: { nextCursor: null } })
  })

  it('needs events:read', async () => {
    const token = await api.tokenWith(['issuance:read'])
    assertProblem(await api.call('GET', EVENTS, undefined, { authorization: `Bearer ${token}` }), 403, 'insufficient-scope')
  })
})

describe('unknown issuances (docs/decisions/0007-http-face.md)', () => {
  it('an unknown id is 404 issuance-not-found on detail and credential', async () => {
    for (const id of ['999', '0', 'abc', '99999999999999999999']) {
      assertProblem(await api.call('GET', issuancePath(id)), 404, 'issuance-not-found')
      assertProblem(await api.call('GET', `${issuancePath(id)}/credential`), 404, 'issuance-not-found')
    }
  })

  it("another club's issuance is 404 issuance-not-found, and absent from the list and the feed", async () => {
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const theirs = await api.issuer.achievements.create('go', { name: 'Go basics', description: 'Learned the rules.' })
    const { result } = await api.issuer.issuances.issue('go', { achievementFormId: theirs.id, recipients: recipients(1) })
    const id = (result.results[0] as { resourceId: number }).resourceId
    await api.issuer.worker.drain()
    assertProblem(await api.call('GET', issuancePath(id)), 404, 'issuance-not-found')
    assertProblem(await api.call('GET', `${issuancePath(id)}/credential`), 404, 'issuance-not-found')
    assert.deepStrictEqual(await listAll(api, ISSUANCES), [])
    assert.deepStrictEqual(await listAll(api, EVENTS), [])
  })

  it('reads need issuance:read', async () => {
    const [item] = (await issue(api, { achievementFormId: templateId, recipients: recipients(1) })).results
    const token = await api.tokenWith(['issuance:write'])
    const as = { authorization: `Bearer ${token}` }
    assertProblem(await api.call('GET', ISSUANCES, undefined, as), 403, 'insufficient-scope')
    assertProblem(await api.call('GET', issuancePath(item.resourceId), undefined, as), 403, 'insufficient-scope')
    assertProblem(await api.call('GET', `${issuancePath(item.resourceId)}/credential`, undefined, as), 403, 'insufficient-scope')
  })
})
