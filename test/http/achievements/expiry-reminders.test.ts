import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ACHIEVEMENTS, aTemplate, assertUnchanged, assertValidation, create, listAll, patch, read, templatePath } from '../../support/achievement-api.ts'
import { ISSUANCES, issue } from '../../support/issuance-api.ts'

/**
 * A template's `expiryReminders` (docs/api.md §2.3): at most 3 ISO 8601 durations of one minute to one
 * year, on create, patch and read; never engraved nor in an issuance's `form`. Bad lists are 422 and
 * change nothing.
 *
 * @see docs/decisions/0047-claims-and-expiry.md
 */

let api: Api
beforeEach(async () => {
  api = await openApi()
})
afterEach(() => api.close())

describe('template expiryReminders', () => {
  it('are stored longest first, upper-cased, read and listed, replaced by a patch and removed by [] or null', async () => {
    const saved = await create(api, aTemplate({ expiryReminders: ['p7d', 'P30D', 'PT1H'] }))
    assert.deepEqual(saved.expiryReminders, ['P30D', 'P7D', 'PT1H'])
    assert.deepEqual((await read(api, saved.id)).expiryReminders, ['P30D', 'P7D', 'PT1H'])
    assert.deepEqual((await listAll(api))[0]!.expiryReminders, ['P30D', 'P7D', 'PT1H'])
    assert.deepEqual((await patch(api, saved.id, { name: 'Renamed' })).expiryReminders, ['P30D', 'P7D', 'PT1H'], 'a patch without it keeps it')
    assert.deepEqual((await patch(api, saved.id, { expiryReminders: ['P1Y', 'PT1M'] })).expiryReminders, ['P1Y', 'PT1M'])
    assert.deepEqual((await patch(api, saved.id, { expiryReminders: null })).expiryReminders, [])
    assert.deepEqual((await create(api, aTemplate())).expiryReminders, [], 'none by default')
  })

  it('are neither engraved into the credential nor part of the issuance form', async () => {
    const saved = await create(api, aTemplate({ expiryReminders: ['P7D'] }))
    const { results } = await issue(api, { achievementFormId: saved.id, recipients: [{ name: 'Kim', email: 'kim@chess.example' }] })
    await api.issuer.worker.drain()
    const detail = (await api.call('GET', `${ISSUANCES}/${results[0]!.resourceId}`)).body.data
    assert.equal('expiryReminders' in detail.form, false)
    const credential = (await api.call('GET', `${ISSUANCES}/${results[0]!.resourceId}/credential`)).body.data
    assert.doesNotMatch(JSON.stringify(credential.payload), /P7D|expiryReminders/)
  })

  it('a list that is not at most 3 distinct durations of one minute to one year is 422 and changes nothing', async () => {
    const refusals: [unknown, { message: string; path: string }[]][] = [
      [['P1D', 'P2D', 'P3D', 'P4D'], [{ message: 'too-many-reminders', path: 'expiryReminders' }]],
      [['30 days'], [{ message: 'invalid-duration', path: 'expiryReminders.0' }]],
      [['P7D', 'P'], [{ message: 'invalid-duration', path: 'expiryReminders.1' }]],
      [['PT59S'], [{ message: 'reminder-too-short', path: 'expiryReminders.0' }]],
      [['P1Y1D'], [{ message: 'reminder-too-long', path: 'expiryReminders.0' }]],
      [['P7D', 'P1W'], [{ message: 'duplicate-reminder', path: 'expiryReminders' }]],
      [[7], [{ message: 'must-be-string', path: 'expiryReminders.0' }]],
      ['P7D', [{ message: 'must-be-array', path: 'expiryReminders' }]],
    ]
    const saved = await create(api, aTemplate({ expiryReminders: ['P7D'] }))
    const before = await read(api, saved.id)
    const templates = await listAll(api)
    for (const [expiryReminders, errors] of refusals) {
      assertValidation(await api.call('POST', ACHIEVEMENTS, aTemplate({ expiryReminders })), errors)
      assertValidation(await api.call('PATCH', templatePath(saved.id), { expiryReminders }), errors)
    }
    await assertUnchanged(api, saved.id, before)
    assert.deepEqual(await listAll(api), templates)
  })
})
