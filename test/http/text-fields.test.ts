/**
 * Free text refuses control characters and lone surrogates on every surface: 422
 * `validation-failed` with `control-character` / `lone-surrogate` at the member, per-recipient `failed`
 * items in an issue batch (docs/api.md §7.6), the legacy 400; a line feed only where text may span lines.
 * Nothing is stored by a refused request.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createDesign, legacyPost, newApiKey } from '../support/legacy-forms.ts'
import { openApi, type Api, type ApiResponse } from '../support/api-harness.ts'
import type { BatchItem } from '../../core/issuances/issue.ts'

const CONTROLS: [string, string][] = [
  ['NUL', '\u0000'],
  ['CR', '\r'],
  ['LF', '\n'],
  ['TAB', '\t'],
  ['ESC', '\u001b'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['C1 CSI', '\u009b'],
]
const LONE = [
  ['high', '\ud800'],
  ['low', '\udc00'],
] as const

describe('text fields', () => {
  let api: Api
  let templateId: number
  let issuanceId: number
  let badge: number
  let key: string
  before(async () => {
    api = await openApi({ club: 'text' })
    const created = await api.call('POST', '/v2/clubs/text/achievements', { name: 'Chess', description: 'Line one\nLine two' })
    assert.equal(created.status, 201, JSON.stringify(created.body))
    templateId = created.body.data.id
    const issued = await api.call('POST', '/v2/clubs/text/issuances', {
      achievementFormId: templateId,
      recipients: [{ name: 'Kim', email: 'kim@example.com' }],
    })
    issuanceId = issued.body.results[0].resourceId
    badge = await createDesign(api, 'badge')
    key = await newApiKey(api)
  })
  after(() => api.close())

  const counts = async () => {
    const [templates, issuances, designs, events] = await Promise.all(
      ['achievements', 'issuances', 'designs', 'events'].map(async (list) => (await api.call('GET', `/v2/clubs/text/${list}?limit=100`)).body.data.length),
    )
    return { templates, issuances, designs, events }
  }
  const refused = (response: ApiResponse, message: string, path: string) => {
    assert.equal(response.status, 422, JSON.stringify(response.body))
    assert.equal(response.body.code, 'validation-failed')
    assert.ok(
      response.body.errors.some((error: { message: string; path: string }) => error.message === message && error.path === path),
      `${message} at ${path}: ${JSON.stringify(response.body.errors)}`,
    )
  }

  describe('single-line members refuse every control character, LF and TAB included', () => {
    for (const [name, char] of CONTROLS) {
      it(`${name} in a template name, nameEn, tag, requirement url, program name; a design name; a v1 form name`, async () => {
        const before = await counts()
        refused(await api.call('POST', '/v2/clubs/text/achievements', { name: `Ch${char}ess`, description: 'd' }), 'control-character', 'name')
        refused(
          await api.call('POST', '/v2/clubs/text/achievements', { name: 'Chess', nameEn: `Ch${char}ess`, description: 'd' }),
          'control-character',
          'nameEn',
        )
        refused(await api.call('POST', '/v2/clubs/text/achievements', { name: 'Chess', description: 'd', tag: [`a${char}b`] }), 'control-character', 'tag.0')
        refused(
          await api.call('POST', '/v2/clubs/text/achievements', { name: 'Chess', description: 'd', program: { name: `p${char}` } }),
          'control-character',
          'program.name',
        )
        refused(await api.call('PATCH', `/v2/clubs/text/achievements/${templateId}`, { name: `x${char}` }), 'control-character', 'name')
        refused(await api.call('POST', '/v2/clubs/text/designs', { kind: 'certificate', name: `d${char}` }), 'control-character', 'name')
        refused(await api.call('POST', '/v1/forms', { name: `v1${char}`, description: 'd' }), 'control-character', 'name')
        refused(
          await api.call('POST', '/v2/clubs/text/achievements', {
            name: 'Chess',
            description: 'd',
            criteria: { requirements: [{ url: `https://a.example/a${char}b` }] },
          }),
          'invalid-url',
          'criteria.requirements.0.url',
        )
        assert.deepEqual(await counts(), before)
      })
    }
  })

  describe('multi-line members take LF and refuse the other controls', () => {
    it('descriptions, engraved descriptions and requirement descriptions keep a line feed', async () => {
      const created = await api.call('POST', '/v2/clubs/text/achievements', {
        name: 'Multi',
        description: 'one\ntwo',
        descriptionEn: 'one\ntwo',
        imprintDescription: '하나\n둘',
        imprintDescriptionEn: 'one\ntwo',
        criteria: { requirements: [{ description: 'step\none' }] },
      })
      assert.equal(created.status, 201, JSON.stringify(created.body))
      assert.equal(created.body.data.description, 'one\ntwo')
      assert.equal(created.body.data.imprintDescription, '하나\n둘')
      assert.equal(created.body.data.criteria.requirements[0].description, 'step\none')
    })

    for (const [name, char] of CONTROLS.filter(([name]) => name !== 'LF')) {
      it(`${name} in description, descriptionEn, imprintDescription, a requirement description, a v1 description`, async () => {
        const before = await counts()
        for (const member of ['description', 'descriptionEn', 'imprintDescription', 'imprintDescriptionEn']) {
          refused(
            await api.call('POST', '/v2/clubs/text/achievements', { name: 'Chess', description: 'd', [member]: `a${char}b` }),
            'control-character',
            member,
          )
        }
        refused(
          await api.call('POST', '/v2/clubs/text/achievements', { name: 'Chess', description: 'd', criteria: { requirements: [{ description: `r${char}` }] } }),
          'control-character',
          'criteria.requirements.0.description',
        )
        refused(await api.call('POST', '/v1/forms', { name: 'v1', description: `d${char}` }), 'control-character', 'description')
        refused(await api.call('PATCH', `/v2/clubs/text/achievements/${templateId}`, { description: `d${char}` }), 'control-character', 'description')
        assert.deepEqual(await counts(), before)
      })
    }
  })

  describe('lone surrogates are refused everywhere; a pair (an emoji) is text', () => {
    for (const [which, char] of LONE) {
      it(`a ${which} surrogate alone in a name or description`, async () => {
        const before = await counts()
        refused(await api.call('POST', '/v2/clubs/text/achievements', { name: `a${char}`, description: 'd' }), 'lone-surrogate', 'name')
        refused(await api.call('POST', '/v2/clubs/text/achievements', { name: 'a', description: `${char}b` }), 'lone-surrogate', 'description')
        refused(await api.call('POST', '/v2/clubs/text/designs', { kind: 'certificate', name: char }), 'lone-surrogate', 'name')
        refused(
          await api.call('POST', '/v2/clubs/text/achievements', {
            name: 'a',
            description: 'd',
            criteria: { requirements: [{ url: `https://a.example/${char}` }] },
          }),
          'invalid-url',
          'criteria.requirements.0.url',
        )
        assert.deepEqual(await counts(), before)
      })
    }
    it('an emoji (a surrogate pair) is accepted', async () => {
      const created = await api.call('POST', '/v2/clubs/text/achievements', { name: '체스 ♟️ 😀', description: '😀' })
      assert.equal(created.status, 201, JSON.stringify(created.body))
      assert.equal(created.body.data.name, '체스 ♟️ 😀')
    })
  })

  describe('recipients: per-recipient failed items, not a request error (docs/api.md §7.6)', () => {
    it('name, externalUserId, email, evidence name and description each fail their own item at their own path', async () => {
      const before = await counts()
      const entries = [
        { externalUserId: 'r0', name: 'Kim\r\nBcc: x', email: 'r0@example.com' },
        { externalUserId: 'r1\u0000', name: 'Lee', email: 'r1@example.com' },
        { externalUserId: 'r2', name: 'Park', email: 'r2@exa\u0000mple.com' },
        { externalUserId: 'r3', name: 'Choi', email: 'r3@example.com', evidences: [{ name: 'e\n', url: 'https://a.example/' }] },
        { externalUserId: 'r4', name: 'Jung', email: 'r4@example.com', evidences: [{ description: 'e\u0007', url: 'https://a.example/' }] },
        { externalUserId: 'r5', name: 'Kang\ud800', email: 'r5@example.com' },
        { externalUserId: 'r6', name: 'Yoon', email: 'r6@example.com', evidences: [{ description: 'two\nlines', url: 'https://a.example/' }] },
      ]
      const response = await api.call('POST', '/v2/clubs/text/issuances', { achievementFormId: templateId, recipients: entries })
      assert.equal(response.status, 200, JSON.stringify(response.body))
      const errors = response.body.results.map((item: BatchItem) => (item.status === 'failed' ? [item.error.code, item.error.path] : item.status))
      assert.deepEqual(errors, [
        ['control-character', 'recipients.0.name'],
        ['control-character', 'recipients.1.externalUserId'],
        ['control-character', 'recipients.2.email'],
        ['control-character', 'recipients.3.evidences.0.name'],
        ['control-character', 'recipients.4.evidences.0.description'],
        ['lone-surrogate', 'recipients.5.name'],
        'issued',
      ])
      const after = await counts()
      assert.equal(after.issuances, before.issuances + 1, 'only the valid recipient is issued')
    })

    it('white space around trimmed members (externalUserId, email), line breaks included, is dropped as before', async () => {
      const response = await api.call('POST', '/v2/clubs/text/issuances', {
        achievementFormId: templateId,
        recipients: [{ externalUserId: ' trim-1\n', name: 'Han', email: 'han@example.com\r\n' }],
      })
      assert.equal(response.body.results[0].status, 'issued', JSON.stringify(response.body))
      assert.equal(response.body.results[0].ref, 'trim-1')
    })

    it('v1 bulk issue reports the same items in failed[]', async () => {
      const response = await api.call('POST', '/v1/achievements', {
        formId: templateId,
        recipients: [{ externalUserId: 'v1-a', name: 'Seo\u0085', email: 'seo@example.com' }],
      })
      assert.equal(response.status, 200, JSON.stringify(response.body))
      assert.deepEqual(response.body.issued, [])
      assert.equal(response.body.failed[0].error.code, 'control-character')
      assert.equal(response.body.failed[0].error.path, 'recipients.0.name')
    })
  })

  describe('revoke reason (multi-line)', () => {
    it('refuses NUL and a lone surrogate, keeps a line feed', async () => {
      refused(await api.call('POST', `/v2/clubs/text/issuances/${issuanceId}/revoke`, { reason: 'a\u0000' }), 'control-character', 'reason')
      refused(await api.call('POST', `/v2/clubs/text/issuances/${issuanceId}/revoke`, { reason: '\udfff' }), 'lone-surrogate', 'reason')
      const detail = await api.call('GET', `/v2/clubs/text/issuances/${issuanceId}`)
      assert.equal(detail.body.data.revokedAt, null, 'a refused revoke revoked nothing')
      const revoked = await api.call('POST', `/v2/clubs/text/issuances/${issuanceId}/revoke`, { reason: 'left the club\nby request' })
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body))
    })
  })

  describe('legacy form creation (NestJS shape)', () => {
    it('is a 400 naming the member and the code, and creates nothing', async () => {
      const before = await counts()
      for (const [body, expected] of [
        [{ name: 'a\rb' }, 'name: control-character'],
        [{ name: 'a', description: 'x\u0000' }, 'description: control-character'],
        [{ name: 'a', program_name: 'p\n' }, 'program_name: control-character'],
        [{ name: '\ud83d' }, 'name: lone-surrogate'],
      ] as const) {
        const response = await legacyPost(api, { authorization: `Bearer ${key}`, body: { type: 'completion', achievementBadgeDesignId: badge, ...body } })
        assert.equal(response.status, 400, response.text)
        assert.equal(response.body.error, 'Bad Request')
        assert.ok(response.body.message.includes(expected), response.body.message)
      }
      const multiLine = await legacyPost(api, {
        authorization: `Bearer ${key}`,
        body: { name: 'ok', description: 'a\nb', type: 'completion', achievementBadgeDesignId: badge },
      })
      assert.equal(multiLine.status, 201, multiLine.text)
      assert.equal((await counts()).templates, before.templates + 1)
    })
  })
})
