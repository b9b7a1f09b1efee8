import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { openApi, type Api } from '../../support/api-harness.ts'
import { createDesign, legacyPost, newApiKey } from '../../support/legacy-forms.ts'
import type { Json } from '../../support/json.ts'

/**
 * One template and one issuance seen through every surface (docs/api.md §1, §4.10, §4.12, §4.13, §9;
 * docs/decisions/0022-v1.md; docs/decisions/0023-legacy-form-creation.md; docs/decisions/0010-lifecycle.md): created on legacy, edited on v2, read and issued
 * on v1, the issuance read on v2 and v1, and the signed credential engraved from the same template.
 */

let api: Api
beforeEach(async () => {
  api = await openApi()
})
afterEach(async () => {
  await api.close()
})

async function ok(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const response = await api.call(method, path, body)
  assert.equal(response.status, status, `${method} ${path} answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

const ids = (requirements: { id: number }[]) => requirements.map((requirement) => requirement.id)

describe('a form created on legacy, edited on v2 and issued on v1 is one template and one issuance throughout', () => {
  it('reads the same template and issuance on every surface, and signs the template as issued', async () => {
    // Created on legacy.
    const badge = await createDesign(api, 'badge')
    const created = await legacyPost(api, {
      authorization: `Bearer ${await newApiKey(api)}`,
      body: {
        name: '체스 입문',
        description: '기본 규칙을 배웠습니다.',
        type: 'completion',
        tags: ['체스', '오프닝'],
        prefix: 'CHS',
        program_name: 'Summer camp',
        program_type: 'camp',
        program_url: 'https://chess.example/camp',
        course_begin_at: '2024-07-01T09:00:00+09:00',
        course_end_at: '2024-07-05T18:00:00+09:00',
        achievementBadgeDesignId: badge,
        requirements: [
          { type: 'score', description: 'Legacy third', order: 2 },
          { type: 'course_complete', description: 'Legacy first', order: 0 },
          { type: 'attendance', description: 'Legacy second', order: 1 },
        ],
      },
    })
    assert.equal(created.status, 201, created.text)
    const formId: number = created.body.achievementFormId
    const legacyRequirementIds = ids((await ok('GET', `/v1/forms/${formId}`)).requirements)

    // Edited on v2.
    const edited = (
      await ok('PATCH', `/v2/clubs/chess/achievements/${formId}`, {
        nameEn: 'Chess basics',
        tag: ['체스', 'endgame'],
        criteria: {
          requirements: [
            { type: 'score', description: 'Score 80 or more', url: 'https://chess.example/exam' },
            { type: 'course_complete', description: 'Finish the course' },
            { type: 'other', description: 'Play ten rated games' },
          ],
        },
      })
    ).data
    assert.equal(edited.nameEn, 'Chess basics')

    // Read on v1: the edit, requirements renumbered by the v2 array order.
    const v1Form = await ok('GET', `/v1/forms/${formId}`)
    assert.equal(v1Form.id, formId)
    assert.equal(v1Form.name, '체스 입문')
    assert.equal(v1Form.nameEn, 'Chess basics')
    assert.deepStrictEqual(v1Form.tags, ['체스', 'endgame'])
    assert.deepStrictEqual(
      v1Form.requirements.map(({ type, description, url, order }: Record<string, unknown>) => ({ type, description, url, order })),
      [
        { type: 'score', description: 'Score 80 or more', url: 'https://chess.example/exam', order: 0 },
        { type: 'course_complete', description: 'Finish the course', url: null, order: 1 },
        { type: 'other', description: 'Play ten rated games', url: null, order: 2 },
      ],
    )
    assert.deepStrictEqual(ids(v1Form.requirements), ids(edited.criteria.requirements), 'v1 and v2 name the same requirements')
    for (const id of ids(v1Form.requirements)) assert.ok(!legacyRequirementIds.includes(id), 'the replaced requirements have new ids')
    // What v2 does not know is kept from legacy.
    assert.equal(v1Form.prefix, 'CHS')
    assert.equal(v1Form.courseBeginAt, '2024-07-01T09:00:00+09:00')
    assert.equal(v1Form.courseEndAt, '2024-07-05T18:00:00+09:00')
    assert.deepStrictEqual(v1Form.program, { name: 'Summer camp', type: 'camp', url: 'https://chess.example/camp', isPublic: true })
    assert.equal(v1Form.achievementBadgeDesignId, badge)

    // Issued on v1.
    const templateAsIssued = (await ok('GET', `/v2/clubs/chess/achievements/${formId}`)).data
    const recipient = { externalUserId: 'kim', name: '김체스', email: 'kim@chess.example' }
    const bulk = await ok('POST', '/v1/achievements', { formId, recipients: [recipient] })
    assert.deepStrictEqual(bulk.failed, [])
    assert.equal(bulk.issued.length, 1)
    const issuanceId: number = bulk.issued[0].id

    // Read on v2: the same recipient, the form as issued.
    const v2Issuance = (await ok('GET', `/v2/clubs/chess/issuances/${issuanceId}`)).data
    assert.equal(v2Issuance.id, issuanceId)
    assert.equal(v2Issuance.achievementId, formId)
    assert.deepStrictEqual(v2Issuance.recipient, recipient)
    // The template's expiry reminders are the live template's, never part of the form (docs/api.md §2.3).
    const { criteria, expiryReminders: _expiryReminders, ...templateRest } = templateAsIssued
    assert.deepStrictEqual(
      v2Issuance.form,
      { ...templateRest, criteria: { narrative: criteria.narrative }, requirements: criteria.requirements },
      'the form snapshot is the template as issued',
    )
    assert.equal(v2Issuance.credential, null)

    // Read on v1: the same issuance.
    const v1Issuance = await ok('GET', `/v1/achievements/${issuanceId}`)
    assert.equal(v1Issuance.id, issuanceId)
    assert.equal(v1Issuance.formId, formId)
    assert.deepStrictEqual(v1Issuance.recipient, v2Issuance.recipient)
    assert.equal(v1Issuance.status, v2Issuance.status)
    assert.equal(v1Issuance.createdAt, v2Issuance.createdAt)
    assert.deepStrictEqual(v1Issuance.form, {
      id: formId,
      name: v2Issuance.form.name,
      nameEn: 'Chess basics',
      description: v2Issuance.form.description,
      descriptionEn: v2Issuance.form.descriptionEn,
      requirements: v2Issuance.form.requirements.map(({ id, type, description, url }: Record<string, unknown>) => ({ id, type, description, url })),
    })
    assert.deepStrictEqual(ids(v1Issuance.form.requirements), ids(v1Form.requirements))
    assert.equal(v1Issuance.credential, null)

    // Signed: one credential, seen alike on both surfaces, engraved from the form.
    await api.issuer.worker.drain()
    const v2Signed = (await ok('GET', `/v2/clubs/chess/issuances/${issuanceId}`)).data
    const v1Signed = await ok('GET', `/v1/achievements/${issuanceId}`)
    assert.notEqual(v2Signed.credential, null)
    assert.equal(v1Signed.credential.id, v2Signed.credential.id)
    assert.equal(v1Signed.credential.shareUrl, v2Signed.credential.shareUrl)
    assert.equal(v1Signed.credential.verifyUrl, v2Signed.credential.verifyUrl)
    assert.equal(v1Signed.status, v2Signed.status)
    assert.deepStrictEqual(v1Signed.form, v1Issuance.form, 'signing does not change the form')

    const credential = (await ok('GET', `/v2/clubs/chess/issuances/${issuanceId}/credential`)).data
    assert.equal(credential.id, v1Signed.credential.id)
    const payload = decodeJwt(credential.jwt) as { jti: string; vc: { credentialSubject: { achievement: Json } } }
    assert.equal(payload.jti, `urn:uuid:${v1Signed.credential.id}`)
    const achievement = payload.vc.credentialSubject.achievement
    assert.equal(achievement.name, v1Issuance.form.name)
    assert.equal(achievement.name, '체스 입문')
    assert.equal(achievement.criteria.narrative, v2Issuance.form.criteria.narrative)
    assert.equal(achievement.criteria.narrative, '1. Score 80 or more (https://chess.example/exam)\n2. Finish the course\n3. Play ten rated games')
    assert.deepStrictEqual(achievement.tag, ['체스', 'endgame'])
    assert.equal(achievement.description, templateAsIssued.imprintDescription)

    assert.equal((await ok('GET', `/v1/forms/${formId}`)).issuedCount, 1, 'v1 counts the completed issuance')
    assert.equal((await ok('GET', `/v2/clubs/chess/achievements/${formId}`)).data.issuedCount, 1, 'v2 counts it alike')

    // A later edit, on v1, changes the template everywhere and the issuance nowhere.
    await ok('PATCH', `/v1/forms/${formId}`, { name: '체스 중급', requirements: [{ description: 'Only this now', order: 0 }] })
    assert.equal((await ok('GET', `/v2/clubs/chess/achievements/${formId}`)).data.name, '체스 중급')
    assert.deepStrictEqual((await ok('GET', `/v2/clubs/chess/issuances/${issuanceId}`)).data.form, v2Signed.form, 'the v2 issuance keeps the form as issued')
    assert.deepStrictEqual((await ok('GET', `/v1/achievements/${issuanceId}`)).form, v1Signed.form, 'the v1 issuance keeps the form as issued')
    assert.equal((await ok('GET', `/v2/clubs/chess/issuances/${issuanceId}/credential`)).data.jwt, credential.jwt, 'the signed credential never changes')
  })

  it('issues a form created on v1 through v2 and reads the issuance on v1 alike', async () => {
    const form = await ok(
      'POST',
      '/v1/forms',
      {
        name: 'Go rules',
        nameEn: 'Go rules',
        description: 'Learned go.',
        requirements: [
          { description: 'b', order: 1 },
          { description: 'a', order: 0 },
        ],
      },
      201,
    )
    const batch = await ok('POST', '/v2/clubs/chess/issuances', {
      achievementFormId: form.id,
      mode: 'none',
      recipients: [{ externalUserId: 'lee', name: 'Lee', email: 'lee@chess.example' }],
    })
    const issuanceId = batch.results[0].resourceId
    const v1Issuance = await ok('GET', `/v1/achievements/${issuanceId}`)
    assert.equal(v1Issuance.formId, form.id)
    assert.deepStrictEqual(
      v1Issuance.form.requirements.map((requirement: { description: string }) => requirement.description),
      ['a', 'b'],
    )
    assert.deepStrictEqual(ids(v1Issuance.form.requirements), ids(form.requirements))
    await api.issuer.worker.drain()
    const v2 = (await ok('GET', `/v2/clubs/chess/issuances/${issuanceId}`)).data
    assert.equal((await ok('GET', `/v1/achievements/${issuanceId}`)).credential.id, v2.credential.id)
  })
})
