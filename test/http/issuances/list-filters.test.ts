import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { createTestClock, type TestClock } from '../../support/clock.ts'
import { assertValidation } from '../../support/achievement-api.ts'
import { ISSUANCES, createTemplate, issue, listAll, recipients } from '../../support/issuance-api.ts'

/**
 * The issuance list's `status` and `claimed` filters beside `achievementId` (docs/api.md §4.4): keyset
 * pages of what passes every filter, and 422 for a value that is not one of the filter's.
 *
 * @see docs/decisions/0047-claims-and-expiry.md
 */

let api: Api
let clock: TestClock
let templateId: number
beforeEach(async () => {
  clock = createTestClock()
  api = await openApi({ clock })
  templateId = await createTemplate(api, { name: '체스 입문', description: '기본 규칙을 배웠습니다.' })
})
afterEach(() => api.close())

const idsOf = async (query: string, limit = 100) => (await listAll(api, `${ISSUANCES}?${query}`, limit)).map((item) => item.id as number)

describe('the issuance list filters status and claimed', () => {
  it('each status and each claimed value lists exactly its issuances, newest first, over keyset pages', async () => {
    const signed = (
      await issue(api, { achievementFormId: templateId, recipients: recipients(4, 'a'), expiresAt: new Date(clock.now() + 60_000).toISOString() })
    ).results.map((result) => result.resourceId as number)
    const forever = (await issue(api, { achievementFormId: templateId, recipients: recipients(2, 'b') })).results.map((result) => result.resourceId as number)
    await api.issuer.worker.drain()
    const pending = (await issue(api, { achievementFormId: templateId, recipients: recipients(1, 'c') })).results.map((result) => result.resourceId as number)
    await api.issuer.issuances.revoke('chess', signed[0]!)
    // A wallet took two: recorded as the wallet endpoints record it.
    for (const id of [signed[1]!, forever[1]!]) {
      await api.storage.transaction((tx) => tx.claims.record({ issuanceId: id, club: 'chess', via: 'oid4vci', format: 'jwt_vc_json', at: clock.now() }))
    }
    clock.advance(120_000)

    const newestFirst = (ids: number[]) => [...ids].reverse()
    assert.deepEqual(await idsOf('status=pending'), pending)
    assert.deepEqual(await idsOf('status=revoked'), [signed[0]])
    assert.deepEqual(await idsOf('status=expired', 1), newestFirst(signed.slice(1)))
    assert.deepEqual(await idsOf('status=valid', 1), newestFirst(forever))
    assert.deepEqual(await idsOf('claimed=true', 1), [forever[1], signed[1]])
    assert.deepEqual(await idsOf('claimed=false', 2), newestFirst([signed[0]!, signed[2]!, signed[3]!, forever[0]!, ...pending]))
    assert.deepEqual(await idsOf(`claimed=false&status=expired&achievementId=${templateId}`), [signed[3], signed[2]])
    assert.deepEqual(await idsOf(`status=valid&achievementId=${templateId + 1}`), [])
  })

  it('a status or claimed value not of the list is 422 validation-failed naming the filter', async () => {
    assertValidation(await api.call('GET', `${ISSUANCES}?status=active`), [{ message: 'unknown-status', path: 'status' }])
    assertValidation(await api.call('GET', `${ISSUANCES}?claimed=yes`), [{ message: 'invalid-claimed', path: 'claimed' }])
    assertValidation(await api.call('GET', `${ISSUANCES}?claimed=1&status=VALID&limit=0`), [
      { message: 'invalid-limit', path: 'limit' },
      { message: 'unknown-status', path: 'status' },
      { message: 'invalid-claimed', path: 'claimed' },
    ])
  })
})
