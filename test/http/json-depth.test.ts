/**
 * Deeply nested JSON bodies: refused at parse time with 400 `invalid-json`, on every
 * operation that reads a body, also under an Idempotency-Key, whose fingerprint walks the body.
 * Before the fix the fingerprint overflowed the stack: a 500.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openApi, type Api } from '../support/api-harness.ts'
import { MAX_JSON_DEPTH } from '../../core/json-depth.ts'

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
/** A body whose member `recipients` nests `levels` arrays: JSON.parse takes it; a recursive walk does not. */
const deepIn = (levels: number) => `{"achievementFormId":1,"recipients":${deep(levels)}}`

describe('deeply nested JSON bodies', () => {
  let api: Api
  let issuanceId: number
  before(async () => {
    api = await openApi({ club: 'deep' })
    const template = await api.call('POST', '/v2/clubs/deep/achievements', { name: 'Deep', description: 'Nested' })
    const issued = await api.call('POST', '/v2/clubs/deep/issuances', {
      achievementFormId: template.body.data.id,
      recipients: [{ name: 'Kim', email: 'kim@example.com' }],
    })
    issuanceId = issued.body.results[0].resourceId
  })
  after(() => api.close())

  const keyed = { 'idempotency-key': 'deep-1' }
  for (const [name, path] of [
    ['v2 issue', () => '/v2/clubs/deep/issuances'],
    ['revoke', () => `/v2/clubs/deep/issuances/${issuanceId}/revoke`],
    ['v1 issue', () => '/v1/achievements'],
  ] as const) {
    it(`${name} with an Idempotency-Key answers 400 invalid-json, not 500`, async () => {
      const response = await api.call('POST', path(), deepIn(100_000), keyed)
      assert.equal(response.status, 400, JSON.stringify(response.body))
      assert.equal(response.body.code, 'invalid-json')
      assert.match(response.body.detail, /nest/)
    })
  }

  it('every JSON route refuses nesting deeper than the bound, and takes the bound itself', async () => {
    for (const [method, path] of [
      ['POST', '/v2/clubs/deep/achievements'],
      ['PATCH', '/v2/clubs/deep/achievements/1'],
      ['POST', '/v2/clubs/deep/designs'],
      ['POST', '/v1/forms'],
    ] as const) {
      const tooDeep = await api.call(method, path, `{"name":${deep(MAX_JSON_DEPTH)}}`)
      assert.equal(tooDeep.status, 400, `${method} ${path}`)
      assert.equal(tooDeep.body.code, 'invalid-json')
      // At the bound (the object itself is one level) the body parses and is judged on its members.
      const atBound = await api.call(method, path, `{"name":${deep(MAX_JSON_DEPTH - 1)}}`)
      assert.equal(atBound.status, 422, `${method} ${path}`)
    }
  })

  it('brackets inside strings do not count as nesting', async () => {
    const response = await api.call('POST', '/v2/clubs/deep/achievements', { name: '['.repeat(150), description: '{"'.repeat(1000) })
    assert.equal(response.status, 201, JSON.stringify(response.body))
  })

  it('nothing was issued or revoked by the refused requests', async () => {
    const list = await api.call('GET', '/v2/clubs/deep/issuances')
    assert.equal(list.body.data.length, 1)
    assert.equal(list.body.data[0].revokedAt ?? null, null)
  })
})
