/** The certificate-number prefix (docs/api.md §2.12): one rule on every surface, engraved with the snapshot. */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'

describe('the certificate-number prefix', () => {
  let api: Api
  before(async () => (api = await openApi()))
  after(() => api.close())

  it('is writable on v2 (letters, at most 5; empty is none), read back on v2 and v1', async () => {
    const created = await api.call('POST', '/v2/clubs/chess/achievements', { name: 'Opening', description: 'Knows openings', prefix: 'CHESS' })
    assert.equal(created.status, 201)
    assert.equal(created.body.data.prefix, 'CHESS')
    assert.equal((await api.call('GET', `/v1/forms/${created.body.data.id}`)).body.prefix, 'CHESS')
    const cleared = await api.call('PATCH', `/v2/clubs/chess/achievements/${created.body.data.id}`, { prefix: '' })
    assert.equal(cleared.body.data.prefix, null)
  })

  it('refuses non-letters and more than 5 letters with the legacy codes, changing nothing', async () => {
    const created = await api.call('POST', '/v2/clubs/chess/achievements', { name: 'Endgame', description: 'Knows endgames', prefix: 'END' })
    for (const [prefix, code] of [
      ['AB1', 'prefix-letters-only'],
      ['ABCDEF', 'prefix-too-long'],
    ] as const) {
      const refused = await api.call('PATCH', `/v2/clubs/chess/achievements/${created.body.data.id}`, { prefix })
      assert.equal(refused.status, 422)
      assert.deepEqual(refused.body.errors, [{ message: code, path: 'prefix' }])
    }
    assert.equal((await api.call('GET', `/v2/clubs/chess/achievements/${created.body.data.id}`)).body.data.prefix, 'END')
  })

  it('is engraved with the snapshot: a later change does not reach an issued form', async () => {
    const created = await api.call('POST', '/v2/clubs/chess/achievements', { name: 'Tactics', description: 'Sees tactics', prefix: 'TAC' })
    const issued = await api.call('POST', '/v2/clubs/chess/issuances', {
      achievementFormId: created.body.data.id,
      recipients: [{ name: 'Kim', email: 'kim@example.com' }],
    })
    await api.call('PATCH', `/v2/clubs/chess/achievements/${created.body.data.id}`, { prefix: 'NEW' })
    const detail = await api.call('GET', `/v2/clubs/chess/issuances/${issued.body.results[0].resourceId}`)
    assert.equal(detail.body.data.form.prefix, 'TAC')
  })
})
