/**
 * clubcred/client's reissue calls (docs/api.md §4.17) on an in-process issuer: each sends an
 * `Idempotency-Key`, the single call answers the detail, the bulk one a result per id; a revoked issuance
 * is a typed `issuance-revoked` error.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { ClubcredError, createClubcredClient, type ClubcredClient } from '../../client/index.ts'
import { openApi, type Api } from '../support/api-harness.ts'
import { ORIGIN } from '../support/origin.ts'
import { createTestClock } from '../support/clock.ts'

let api: Api
let keys: (string | null)[]

beforeEach(async () => {
  api = await openApi({ clock: createTestClock() })
  keys = []
})
afterEach(async () => {
  await api.close()
})

async function newClient(): Promise<ClubcredClient> {
  const credentials = await api.issuer.clients.create({ club: api.club })
  return createClubcredClient({
    baseUrl: ORIGIN,
    clientId: credentials.client_id,
    clientSecret: credentials.client_secret,
    club: api.club,
    fetch: (request: Request) => {
      if (new URL(request.url).pathname.endsWith('/reissue')) keys.push(request.headers.get('idempotency-key'))
      return api.issuer.fetch(request)
    },
  })
}

describe('the client reissues', () => {
  it('one issuance as a new version, many with one expiry, and a revoked one as issuance-revoked', async () => {
    const client = await newClient()
    const templateId = (await client.achievements.create({ name: 'Membership', description: 'A yearly membership.' })).id
    const issued = await client.issuances.issue({
      achievementFormId: templateId,
      recipients: [1, 2, 3].map((n) => ({ name: `Member ${n}`, email: `m${n}@chess.example` })),
    })
    const ids = issued.results.map((item) => (item.status === 'issued' ? item.resourceId : assert.fail(item.ref)))
    await api.issuer.worker.drain()

    const detail = await client.issuances.reissue(ids[0]!, { name: 'Kim Minjun' })
    assert.equal(detail.id, ids[0])
    assert.equal(detail.recipient.name, 'Kim Minjun')
    await client.issuances.revoke(ids[2]!)
    const renewal = await client.issuances.reissueMany({ issuanceIds: ids, expiresAt: '2099-01-01T00:00:00Z' })
    assert.deepStrictEqual(renewal.summary, { total: 3, ok: 2, skipped: 1, failed: 0 })
    await api.issuer.worker.drain()
    // Both reissues of ids[0] were accepted before the worker ran: one new version carries both.
    const renewed = await client.issuances.get(ids[0]!)
    assert.equal(renewed.versions.length, 2)
    assert.equal(renewed.recipient.name, 'Kim Minjun')
    assert.equal(renewed.expiresAt, '2099-01-01T00:00:00.000Z')
    const { payload } = await client.issuances.credential(ids[0]!)
    assert.equal((payload.vc as { validUntil: string }).validUntil, '2099-01-01T00:00:00Z')

    const error = await client.issuances.reissue(ids[2]!).then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    )
    assert.ok(error instanceof ClubcredError)
    assert.equal(error.status, 409)
    assert.equal(error.code, 'issuance-revoked')
    assert.equal(keys.length, 3)
    assert.ok(
      keys.every((key) => typeof key === 'string' && key.length > 0),
      'every reissue sends an Idempotency-Key',
    )
  })
})
