import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { assertSignedCredential } from '../../support/ob3-schema.ts'
import { patch, read } from '../../support/achievement-api.ts'
import { clubKeys, createTemplate, issue, readCredential, readIssuance } from '../../support/issuance-api.ts'
import type { TemplateView } from '../../../core/achievements/present.ts'
import type { Json } from '../../support/json.ts'

/**
 * Template reads return what the next credential engraves, and template edits never change credentials
 * already issued (docs/api.md §1, §2.3, §2.11, §3; docs/decisions/0010-lifecycle.md, §6).
 */

let api: Api
let templateId: number
beforeEach(async () => {
  api = await openApi()
  templateId = await createTemplate(api, {
    name: '체스 입문',
    nameEn: 'Chess basics',
    type: 'completion',
    description: '기본 규칙을 배웠습니다.',
    descriptionEn: 'Learned the rules.',
    imprintDescription: 'Completed the beginners course',
    tag: ['opening', 'tactics'],
    criteria: {
      requirements: [
        { type: 'course_complete', description: 'Finish the course' },
        { type: 'score', description: 'Score 80 or more', url: 'https://chess.example/exam' },
      ],
    },
  })
  // A co-issuer, as the admin adds them (read-only on v2, docs/decisions/0012-co-issuers.md).
  await api.issuer.achievements.coIssuers.add('chess', templateId, { name: 'Seoul Chess Federation', url: 'https://federation.example', isVerified: true })
})
afterEach(async () => {
  await api.close()
})

/** Issues the template to one recipient, signs it and returns the issuance id, its JWT and the decoded vc. */
async function issueAndSign(externalUserId: string) {
  const [item] = (
    await issue(api, { achievementFormId: templateId, recipients: [{ externalUserId, name: 'Kim Minsu', email: `${externalUserId}@chess.example` }] })
  ).results
  await api.issuer.worker.drain()
  const { jwt } = await readCredential(api, item.resourceId)
  const { vc } = await assertSignedCredential(jwt, { keys: await clubKeys(api), email: `${externalUserId}@chess.example` })
  return { id: item.resourceId as number, jwt, vc }
}

/** docs/api.md §2.11: what the credential's achievement holds of the template read, exactly. */
function assertEngraves(template: TemplateView, vc: Json): void {
  const achievement = vc.credentialSubject.achievement
  assert.equal(achievement.name, template.name)
  assert.equal(achievement.achievementType, template.achievementType)
  assert.equal(achievement.criteria.narrative, template.criteria.narrative)
  assert.deepStrictEqual(achievement.tag, template.tag)
  assert.deepStrictEqual(achievement.alignment, template.alignment)
  assert.equal(achievement.description, template.imprintDescription, 'the engraved description is achievement.description')
  assert.deepStrictEqual(achievement['x-partnerOrganizations'], template.coIssuers)
}

describe('template reads and the next credential (docs/api.md §1, §2.11)', () => {
  it('the template read before issuing equals what the credential engraves', async () => {
    const template = await read(api, templateId)
    assert.equal(template.achievementType, 'CertificateOfCompletion')
    assert.equal(template.criteria.narrative, '1. Finish the course\n2. Score 80 or more (https://chess.example/exam)')
    assert.deepStrictEqual(
      template.coIssuers.map((coIssuer: { role: string }) => coIssuer.role),
      ['representative', 'partner'],
    )
    const { vc } = await issueAndSign('first')
    assertEngraves(template, vc)
  })

  it('a club verification shows in the template read and in the next credential', async () => {
    await api.issuer.clubs.setVerified('chess', true)
    const template = await read(api, templateId)
    assert.equal(template.coIssuers[0]!.isVerified, true)
    assertEngraves(template, (await issueAndSign('verified')).vc)
  })
})

describe('template edits after issuing (docs/api.md §3, docs/decisions/0010-lifecycle.md)', () => {
  const edit = {
    name: '체스 입문 (개정)',
    nameEn: 'Chess basics, revised',
    description: '규칙과 전술을 배웠습니다.',
    descriptionEn: 'Learned the rules and tactics.',
    imprintDescription: 'Completed the revised course',
    tag: ['endgame'],
    criteria: { requirements: [{ type: 'presentation_publication', description: 'Present a game', url: 'https://chess.example/talk' }] },
  }

  it('leave the issued credential byte for byte and its form unchanged; the next credential carries the edit', async () => {
    const before = await read(api, templateId)
    const first = await issueAndSign('first')
    const formBefore = (await readIssuance(api, first.id)).form

    const edited = await patch(api, templateId, edit)
    assert.equal(edited.criteria.narrative, '1. Present a game (https://chess.example/talk)')

    assert.equal((await readCredential(api, first.id)).jwt, first.jwt, 'the first JWT is unchanged byte for byte')
    const formAfter = (await readIssuance(api, first.id)).form
    assert.deepStrictEqual(formAfter, formBefore, 'the detail form is the template as issued')
    assert.equal(formAfter.nameEn, 'Chess basics')
    assert.equal(formAfter.descriptionEn, 'Learned the rules.')
    assert.deepStrictEqual(
      formAfter.requirements.map((requirement: { id: number }) => requirement.id),
      before.criteria.requirements.map((requirement: { id: number }) => requirement.id),
    )
    assertEngraves(before, first.vc)

    const next = await issueAndSign('next')
    assertEngraves(await read(api, templateId), next.vc)
    assert.equal(next.vc.credentialSubject.achievement.description, 'Completed the revised course')
    assert.deepStrictEqual(next.vc.credentialSubject.achievement.tag, ['endgame'])
    const nextForm = (await readIssuance(api, next.id)).form
    assert.equal(nextForm.nameEn, 'Chess basics, revised')
    assert.deepStrictEqual(
      nextForm.requirements.map((requirement: { id: number }) => requirement.id),
      edited.criteria.requirements.map((requirement: { id: number }) => requirement.id),
    )
  })

  it('an edit between issuing and signing does not reach the credential: it engraves the template as issued', async () => {
    const asIssued = await read(api, templateId)
    const [item] = (await issue(api, { achievementFormId: templateId, recipients: [{ name: 'Lee Jiwoo', email: 'jiwoo@chess.example' }] })).results
    await patch(api, templateId, edit)
    await api.issuer.worker.drain()
    const { jwt } = await readCredential(api, item.resourceId)
    const { vc } = await assertSignedCredential(jwt, { keys: await clubKeys(api), email: 'jiwoo@chess.example' })
    assertEngraves(asIssued, vc)
    assert.equal((await readIssuance(api, item.resourceId)).form.nameEn, 'Chess basics')
  })

  it('an edit of the co-issuers leaves issued credentials as they were', async () => {
    const first = await issueAndSign('first')
    await api.issuer.achievements.coIssuers.remove('chess', templateId, { url: 'https://federation.example/' })
    assert.equal((await readCredential(api, first.id)).jwt, first.jwt)
    const next = await issueAndSign('next')
    assert.deepStrictEqual(
      next.vc.credentialSubject.achievement['x-partnerOrganizations'].map((coIssuer: { role: string }) => coIssuer.role),
      ['representative'],
    )
  })
})
