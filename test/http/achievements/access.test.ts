import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ORIGIN } from '../../support/origin.ts'
import {
  ACHIEVEMENTS,
  aTemplate,
  assertProblem,
  assertUnchanged,
  assertValidation,
  create,
  listAll,
  read,
  templatePath,
} from '../../support/achievement-api.ts'
import type { TemplateView } from '../../../core/achievements/present.ts'

/**
 * Template routes as a client meets them (docs/api.md §4.10, docs/decisions/0007-http-face.md;
 * docs/decisions/0003-scopes-per-operation.md; docs/decisions/0010-lifecycle.md): status codes, Location, 404s, scopes and body parsing.
 */

let api: Api
beforeEach(async () => {
  api = await openApi()
})
afterEach(async () => {
  await api.close()
})

const MiB = 1024 * 1024

describe('create answers', () => {
  it('create answers 201 with the detail as saved and a Location that GET answers with the same detail', async () => {
    const response = await api.call('POST', ACHIEVEMENTS, aTemplate({ tag: ['tactics'] }))
    assert.equal(response.status, 201)
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
    const location = response.headers.get('location')
    assert.ok(location, 'Location header is present')
    assert.equal(location, `${ORIGIN}${ACHIEVEMENTS}/${response.body.data.id}`)
    const fetched = await api.call('GET', location.slice(ORIGIN.length))
    assert.equal(fetched.status, 200)
    assert.deepEqual(fetched.body, { data: response.body.data })
  })

  it('each create gets a new, higher id', async () => {
    const first = await create(api)
    const second = await create(api)
    assert.ok(second.id > first.id)
  })

  it('a patch answers 200 with the detail as saved', async () => {
    const saved = await create(api)
    const response = await api.call('PATCH', templatePath(saved.id), { name: 'Renamed' })
    assert.equal(response.status, 200)
    assert.equal(response.body.data.name, 'Renamed')
    assert.deepEqual(response.body.data, await read(api, saved.id))
  })
})

describe('unknown templates (achievement-not-found)', () => {
  it('an unknown id answers 404 achievement-not-found on GET and PATCH', async () => {
    const saved = await create(api)
    assertProblem(await api.call('GET', templatePath(saved.id + 1)), 404, 'achievement-not-found')
    assertProblem(await api.call('PATCH', templatePath(saved.id + 1), { name: 'x' }), 404, 'achievement-not-found')
    assert.equal((await listAll(api)).length, 1)
  })

  it("the id of another club's template answers 404 achievement-not-found, and a patch leaves it unchanged", async () => {
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const theirs = await api.issuer.achievements.create('go', aTemplate({ name: 'Their template' }) as never)
    assertProblem(await api.call('GET', templatePath(theirs.id)), 404, 'achievement-not-found')
    assertProblem(await api.call('PATCH', templatePath(theirs.id), { name: 'Hijacked' }), 404, 'achievement-not-found')
    assert.deepEqual(await api.issuer.achievements.read('go', theirs.id), theirs)
    assert.deepEqual(await listAll(api), [])
  })

  for (const id of ['abc', '0', '-1', '1.5', '1e3', '0x1', '99999999999999999999']) {
    it(`the non-numeric or out-of-range id "${id}" answers 404 achievement-not-found`, async () => {
      await create(api)
      assertProblem(await api.call('GET', templatePath(encodeURIComponent(id))), 404, 'achievement-not-found')
      assertProblem(await api.call('PATCH', templatePath(encodeURIComponent(id)), { name: 'x' }), 404, 'achievement-not-found')
    })
  }
})

describe('scopes (docs/decisions/0003-scopes-per-operation.md)', () => {
  it('a token with only achievements:read can list and read, but POST and PATCH answer 403 insufficient-scope', async () => {
    const saved = await create(api)
    const token = await api.tokenWith(['achievements:read'])
    const auth = { authorization: `Bearer ${token}` }

    const list = await api.call('GET', ACHIEVEMENTS, undefined, auth)
    assert.equal(list.status, 200)
    assert.deepEqual(
      list.body.data.map((item: TemplateView) => item.id),
      [saved.id],
    )
    const detail = await api.call('GET', templatePath(saved.id), undefined, auth)
    assert.equal(detail.status, 200)
    assert.deepEqual(detail.body.data, saved)

    const created = await api.call('POST', ACHIEVEMENTS, aTemplate(), auth)
    assertProblem(created, 403, 'insufficient-scope')
    assert.match(created.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/)
    assert.match(created.headers.get('www-authenticate') ?? '', /scope="svc:openapi:achievements:manage"/)

    const patched = await api.call('PATCH', templatePath(saved.id), { name: 'Renamed' }, auth)
    assertProblem(patched, 403, 'insufficient-scope')
    assert.match(patched.headers.get('www-authenticate') ?? '', /scope="svc:openapi:achievements:manage"/)

    await assertUnchanged(api, saved.id, saved)
    assert.equal((await listAll(api)).length, 1)
  })

  it('a token with only achievements:manage can create and patch, but list and detail answer 403 insufficient-scope', async () => {
    const token = await api.tokenWith(['achievements:manage'])
    const auth = { authorization: `Bearer ${token}` }
    const created = await api.call('POST', ACHIEVEMENTS, aTemplate(), auth)
    assert.equal(created.status, 201)
    assert.equal((await api.call('PATCH', templatePath(created.body.data.id), { name: 'Renamed' }, auth)).status, 200)
    assertProblem(await api.call('GET', ACHIEVEMENTS, undefined, auth), 403, 'insufficient-scope')
    assertProblem(await api.call('GET', templatePath(created.body.data.id), undefined, auth), 403, 'insufficient-scope')
  })

  it('a request without a token answers 401 invalid-token and creates nothing', async () => {
    const response = await api.call('POST', ACHIEVEMENTS, aTemplate(), { authorization: '' })
    assertProblem(response, 401, 'invalid-token')
    assert.deepEqual(await listAll(api), [])
  })

  it("a token of this club used on another club's templates answers 403 club-forbidden", async () => {
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const theirs = await api.issuer.achievements.create('go', aTemplate() as never)
    assertProblem(await api.call('GET', '/v2/clubs/go/achievements'), 403, 'club-forbidden')
    assertProblem(await api.call('GET', `/v2/clubs/go/achievements/${theirs.id}`), 403, 'club-forbidden')
    assertProblem(await api.call('POST', '/v2/clubs/go/achievements', aTemplate()), 403, 'club-forbidden')
    assertProblem(await api.call('PATCH', `/v2/clubs/go/achievements/${theirs.id}`, { name: 'x' }), 403, 'club-forbidden')
    assert.deepEqual(await api.issuer.achievements.read('go', theirs.id), theirs)
  })
})

describe('request bodies (docs/decisions/0007-http-face.md)', () => {
  it('malformed JSON answers 400 invalid-json on POST and PATCH and changes nothing', async () => {
    const saved = await create(api)
    assertProblem(await api.call('POST', ACHIEVEMENTS, '{"name": "x", "description": '), 400, 'invalid-json')
    assertProblem(await api.call('PATCH', templatePath(saved.id), "{name: 'x'}"), 400, 'invalid-json')
    await assertUnchanged(api, saved.id, saved)
    assert.equal((await listAll(api)).length, 1)
  })

  it('a body that is not UTF-8 answers 400 invalid-json', async () => {
    const response = await api.issuer.fetch(
      new Request(`${ORIGIN}${ACHIEVEMENTS}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      }),
    )
    assert.equal(response.status, 400)
    assert.equal(response.headers.get('content-type'), 'application/problem+json')
    assert.equal(((await response.json()) as { code: string }).code, 'invalid-json')
  })

  it('a text/plain body answers 415 unsupported-media-type on POST and PATCH and changes nothing', async () => {
    const saved = await create(api)
    const body = JSON.stringify(aTemplate())
    assertProblem(await api.call('POST', ACHIEVEMENTS, body, { 'content-type': 'text/plain' }), 415, 'unsupported-media-type')
    assertProblem(
      await api.call('PATCH', templatePath(saved.id), JSON.stringify({ name: 'x' }), { 'content-type': 'text/plain' }),
      415,
      'unsupported-media-type',
    )
    await assertUnchanged(api, saved.id, saved)
    assert.equal((await listAll(api)).length, 1)
  })

  it('a JSON body with a charset parameter is accepted', async () => {
    const response = await api.call('POST', ACHIEVEMENTS, aTemplate(), { 'content-type': 'application/json; charset=utf-8' })
    assert.equal(response.status, 201)
  })

  it('a body over 1 MiB answers 413 payload-too-large on POST and PATCH and changes nothing', async () => {
    const saved = await create(api)
    const huge = aTemplate({ description: 'x'.repeat(MiB) })
    assert.ok(new TextEncoder().encode(JSON.stringify(huge)).length > MiB)
    assertProblem(await api.call('POST', ACHIEVEMENTS, huge), 413, 'payload-too-large')
    assertProblem(await api.call('PATCH', templatePath(saved.id), { description: 'x'.repeat(MiB) }), 413, 'payload-too-large')
    await assertUnchanged(api, saved.id, saved)
    assert.equal((await listAll(api)).length, 1)
  })

  it('a body over 1 MiB that does not declare its length still answers 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MiB) return controller.close()
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const response = await api.issuer.fetch(
      new Request(`${ORIGIN}${ACHIEVEMENTS}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    )
    assert.equal(response.status, 413)
    assert.equal(((await response.json()) as { code: string }).code, 'payload-too-large')
    assert.deepEqual(await listAll(api), [])
  })

  it('a body just under 1 MiB is parsed, and a too-long description then answers 422 too-long', async () => {
    const body = aTemplate({ description: 'x'.repeat(MiB - 100) })
    assert.ok(new TextEncoder().encode(JSON.stringify(body)).length <= MiB)
    assertValidation(await api.call('POST', ACHIEVEMENTS, body), [{ message: 'too-long', path: 'description' }])
    assert.deepEqual(await listAll(api), [])
  })

  for (const [label, body] of [
    ['an array', '[]'],
    ['an array of a template', JSON.stringify([aTemplate()])],
    ['a number', '42'],
    ['a string', '"template"'],
    ['null', 'null'],
    ['true', 'true'],
  ] as const) {
    it(`a JSON body that is ${label}, not an object, answers 422 must-be-object on POST and PATCH`, async () => {
      const saved = await create(api)
      assertValidation(await api.call('POST', ACHIEVEMENTS, body), [{ message: 'must-be-object', path: '' }])
      assertValidation(await api.call('PATCH', templatePath(saved.id), body), [{ message: 'must-be-object', path: '' }])
      await assertUnchanged(api, saved.id, saved)
      assert.equal((await listAll(api)).length, 1)
    })
  }

  it('an empty body on POST answers 400 invalid-json and creates nothing', async () => {
    assertProblem(await api.call('POST', ACHIEVEMENTS, ''), 400, 'invalid-json')
    assert.deepEqual(await listAll(api), [])
  })

  it('an empty object patch is accepted and changes nothing but updatedAt', async () => {
    const saved = await create(api)
    const { updatedAt: _, ...patched } = (await api.call('PATCH', templatePath(saved.id), {})).body.data
    const { updatedAt: __, ...before } = saved
    assert.deepEqual(patched, before)
  })
})
