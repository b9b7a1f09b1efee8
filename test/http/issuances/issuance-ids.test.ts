/**
 * Issuance ids cannot be counted: the public verdict is keyed by the issuance id and leads to
 * the recipient's share page, so ids are random below 2^53 while lists keep issue order.
 * Through the real server process on SQLite.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { accessToken } from '../../support/tokens.ts'
import { adminClubAndClient, openAdmin, removeDataDir, startServer, type ServerProcess } from '../../support/server.ts'

const CLUB = 'ids'
const BASE = `/v2/clubs/${CLUB}`

describe('issuance ids', () => {
  let server: ServerProcess
  let token: string
  let ids: number[] = []
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    server.http(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  before(async () => {
    server = await startServer()
    const admin = openAdmin(server.dataDir)
    const client = await adminClubAndClient(admin, CLUB)
    await admin.close()
    token = await accessToken(server, client)
    const template = await call('POST', `${BASE}/achievements`, { name: 'Openings', description: 'Knows the openings.' })
    assert.equal(template.status, 201, template.text)
    const recipients = Array.from({ length: 1_000 }, (_, i) => ({ externalUserId: `m-${i}`, name: `Member ${i}`, email: `m${i}@ids.example` }))
    const issued = await call('POST', `${BASE}/issuances`, { achievementFormId: template.json.data.id, mode: 'none', recipients })
    assert.equal(issued.status, 200, issued.text.slice(0, 500))
    assert.equal(issued.json.summary.ok, 1_000)
    ids = issued.json.results.map((item: { resourceId: number }) => item.resourceId)
  })
  after(async () => {
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
  })

  it('1,000 issued ids are distinct JSON numbers below 2^53, neither sequential nor ordered', () => {
    assert.equal(new Set(ids).size, 1_000)
    for (const id of ids) assert.ok(typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 && id < 2 ** 53, `id ${id}`)
    const steps = ids.slice(1).map((id, i) => id - ids[i]!)
    assert.ok(!steps.every((step) => step === 1), 'not sequential')
    assert.ok(!steps.every((step) => step > 0) && !steps.every((step) => step < 0), 'not ordered either way')
    // Counting from any issued id finds nobody: no id has its neighbour among the others.
    const all = new Set(ids)
    assert.equal(ids.filter((id) => all.has(id + 1)).length, 0)
    // Most are 16 digits long (a random draw below 2^53 has 16 digits with probability 1 - 10^15 / 2^53 ≈ 0.89).
    assert.ok(ids.filter((id) => String(id).length === 16).length > 800)
  })

  it('the list pages newest first and names every issuance exactly once', async () => {
    const seen: number[] = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      const page = await call('GET', `${BASE}/issuances?limit=100${query}`)
      assert.equal(page.status, 200, page.text.slice(0, 300))
      seen.push(...page.json.data.map((item: { id: number }) => item.id))
      cursor = page.json.meta.nextCursor
    } while (cursor !== null)
    assert.deepStrictEqual(seen, [...ids].reverse())
  })

  it('a 16-digit id works on every path that takes one: detail, credential, file, revoke, v1 and the public verdict', async () => {
    const id = ids.find((candidate) => String(candidate).length === 16)!
    assert.equal((await call('GET', `${BASE}/issuances/${id}`)).json.data.id, id)
    // The worker signs in the background; wait (bounded) until this credential exists, then read it everywhere.
    let credential = await call('GET', `${BASE}/issuances/${id}/credential`)
    for (let tries = 0; credential.status === 409 && tries < 600; tries++) {
      assert.equal(credential.json.code, 'credential-pending')
      await new Promise((resolve) => setTimeout(resolve, 100))
      credential = await call('GET', `${BASE}/issuances/${id}/credential`)
    }
    assert.equal(credential.status, 200, credential.text)
    const file = await call('GET', `${BASE}/issuances/${id}/file?format=svg`)
    assert.equal(file.status, 200)
    assert.match(file.text, /<openbadges:credential verify="/)
    assert.equal((await call('GET', `/v1/achievements/${id}`)).json.id, id)
    const verdict = await server.http(`/open-badges/v3/achievements/${id}/verify`)
    assert.equal(verdict.status, 200, verdict.text)
    assert.equal(verdict.json.isValid, true)
    assert.equal(verdict.json.payload.jti, credential.json.data.payload.jti)
    const revoked = await call('POST', `${BASE}/issuances/${id}/revoke`, { reason: 'test' })
    assert.equal(revoked.status, 200, revoked.text)
    assert.equal(revoked.json.data.id, id)
  })

  it('an id of 2^53 or more, or of 17 digits, is a 404 of the route, never a 500 or a rounded neighbour', async () => {
    for (const raw of [String(2 ** 53), '9999999999999999', '12345678901234567', '0' + String(ids[0])]) {
      const detail = await call('GET', `${BASE}/issuances/${raw}`)
      assert.equal(detail.status, 404, `${raw}: ${detail.text}`)
      assert.equal(detail.json.code, 'issuance-not-found')
      assert.equal((await server.http(`/open-badges/v3/achievements/${raw}/verify`)).status, 404)
      assert.equal((await call('GET', `/v1/achievements/${raw}`)).status, 404)
      assert.equal((await call('POST', `${BASE}/issuances/${raw}/revoke`, {})).status, 404)
      assert.equal((await call('GET', `${BASE}/issuances/${raw}/file?format=svg`)).status, 404)
    }
  })
})
