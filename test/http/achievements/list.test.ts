import assert from 'node:assert/strict'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ACHIEVEMENTS, aTemplate, assertValidation, create } from '../../support/achievement-api.ts'
import type { TemplateView } from '../../../core/achievements/present.ts'

/** The template list as a cursor list (docs/api.md §4, §4.10; docs/decisions/0009-lists.md). */

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url')

async function page(api: Api, query: string): Promise<{ data: TemplateView[]; meta: { nextCursor: string | null } }> {
  const response = await api.call('GET', `${ACHIEVEMENTS}${query}`)
  assert.equal(response.status, 200, JSON.stringify(response.body))
  assert.deepEqual(Object.keys(response.body).sort(), ['data', 'meta'])
  return response.body
}

/** Follows `meta.nextCursor` from the first page; returns every page. */
async function allPages(api: Api, limit: number): Promise<{ data: TemplateView[]; meta: { nextCursor: string | null } }[]> {
  const pages = [await page(api, `?limit=${limit}`)]
  while (pages.at(-1)!.meta.nextCursor) {
    pages.push(await page(api, `?limit=${limit}&cursor=${encodeURIComponent(pages.at(-1)!.meta.nextCursor!)}`))
  }
  return pages
}

describe('paging through 250 templates', () => {
  let api: Api
  let created: number[]
  before(async () => {
    api = await openApi()
    created = []
    for (let i = 0; i < 250; i++) created.push((await create(api, aTemplate({ name: `Template ${i}`, tag: [`t${i % 7}`] }))).id)
  })
  after(async () => {
    await api.close()
  })

  it('limit=100 following meta.nextCursor returns each template exactly once, newest first, and ends with nextCursor null', async () => {
    const pages = await allPages(api, 100)
    assert.deepEqual(
      pages.map((p) => p.data.length),
      [100, 100, 50],
    )
    assert.equal(typeof pages[0]!.meta.nextCursor, 'string')
    assert.equal(typeof pages[1]!.meta.nextCursor, 'string')
    assert.equal(pages[2]!.meta.nextCursor, null)
    const ids = pages.flatMap((p) => p.data.map((item) => item.id))
    assert.equal(new Set(ids).size, 250)
    assert.deepEqual(ids, [...created].reverse())
  })

  it('a limit that divides the count exactly ends with a full last page and nextCursor null', async () => {
    const pages = await allPages(api, 50)
    assert.deepEqual(
      pages.map((p) => p.data.length),
      [50, 50, 50, 50, 50],
    )
    assert.equal(pages.at(-1)!.meta.nextCursor, null)
    assert.deepEqual(
      pages.flatMap((p) => p.data.map((item) => item.id)),
      [...created].reverse(),
    )
  })

  it('without limit a page holds 20 templates', async () => {
    const first = await page(api, '')
    assert.equal(first.data.length, 20)
    assert.deepEqual(
      first.data.map((item) => item.id),
      [...created].reverse().slice(0, 20),
    )
  })

  it('limit=1 and limit=100 are accepted', async () => {
    assert.equal((await page(api, '?limit=1')).data.length, 1)
    assert.equal((await page(api, '?limit=100')).data.length, 100)
  })

  it('list items carry tag, alignment, achievementType and issuedCount, equal to the detail', async () => {
    const first = await page(api, '?limit=3')
    for (const item of first.data) {
      assert.ok(Array.isArray(item.tag))
      assert.ok(Array.isArray(item.alignment))
      assert.equal(item.alignment.length, item.tag.length)
      assert.equal(item.achievementType, 'CertificateOfCompletion')
      assert.equal(item.issuedCount, 0)
      const detail = await api.call('GET', `${ACHIEVEMENTS}/${item.id}`)
      assert.deepEqual(item, detail.body.data)
    }
  })
})

describe('list parameters', () => {
  let api: Api
  beforeEach(async () => {
    api = await openApi()
  })
  afterEach(async () => {
    await api.close()
  })

  it('a club without templates lists [] with nextCursor null', async () => {
    assert.deepEqual(await page(api, ''), { data: [], meta: { nextCursor: null } })
  })

  it('a page that holds the last template has nextCursor null', async () => {
    await create(api)
    await create(api)
    assert.equal((await page(api, '?limit=2')).meta.nextCursor, null)
    const first = await page(api, '?limit=1')
    assert.equal(typeof first.meta.nextCursor, 'string')
    const second = await page(api, `?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor!)}`)
    assert.equal(second.data.length, 1)
    assert.equal(second.meta.nextCursor, null)
  })

  it('a cursor keeps its place: templates created after it was issued do not shift the later pages', async () => {
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push((await create(api)).id)
    const first = await page(api, '?limit=2')
    const late = await create(api)
    const second = await page(api, `?limit=2&cursor=${encodeURIComponent(first.meta.nextCursor!)}`)
    const third = await page(api, `?limit=2&cursor=${encodeURIComponent(second.meta.nextCursor!)}`)
    assert.deepEqual(
      [...first.data, ...second.data, ...third.data].map((item) => item.id),
      [...ids].reverse(),
    )
    assert.equal(third.meta.nextCursor, null)
    assert.equal((await page(api, '?limit=1')).data[0]!.id, late.id)
  })

  for (const limit of ['0', '101', 'abc', '', '-1', '1.5', '20abc', '1e2', '99999']) {
    it(`limit=${limit} answers 422 invalid-limit`, async () => {
      assertValidation(await api.call('GET', `${ACHIEVEMENTS}?limit=${encodeURIComponent(limit)}`), [{ message: 'invalid-limit', path: 'limit' }])
    })
  }

  for (const [label, cursor] of [
    ['a garbage cursor', 'not a cursor!'],
    ['a base64url cursor of garbage', base64url('garbage')],
    ['a cursor with a non-numeric id', base64url('achievements:abc')],
    ['an empty cursor', ''],
  ] as const) {
    it(`${label} answers 422 invalid-cursor`, async () => {
      await create(api)
      assertValidation(await api.call('GET', `${ACHIEVEMENTS}?cursor=${encodeURIComponent(cursor)}`), [{ message: 'invalid-cursor', path: 'cursor' }])
    })
  }

  it('a cursor from another list name is refused with invalid-cursor, while the same id under this list is accepted', async () => {
    const templates = [await create(api), await create(api), await create(api)]
    const id = templates[2]!.id
    for (const list of ['issuances', 'events', 'Achievements']) {
      assertValidation(await api.call('GET', `${ACHIEVEMENTS}?cursor=${base64url(`${list}:${id}`)}`), [{ message: 'invalid-cursor', path: 'cursor' }])
    }
    const own = await page(api, `?cursor=${base64url(`achievements:${id}`)}`)
    assert.deepEqual(
      own.data.map((item) => item.id),
      [templates[1]!.id, templates[0]!.id],
    )
  })

  it('a bad limit and a bad cursor are reported together', async () => {
    assertValidation(await api.call('GET', `${ACHIEVEMENTS}?limit=0&cursor=zzz`), [
      { message: 'invalid-limit', path: 'limit' },
      { message: 'invalid-cursor', path: 'cursor' },
    ])
  })

  it("the list holds only this club's templates", async () => {
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const ours = await create(api)
    await api.issuer.achievements.create('go', aTemplate() as never)
    const theirsAfter = await api.issuer.achievements.create('go', aTemplate() as never)
    const listed = await page(api, '?limit=100')
    assert.deepEqual(
      listed.data.map((item) => item.id),
      [ours.id],
    )
    // Another club's id as a cursor position does not let their templates in either.
    const below = await page(api, `?cursor=${base64url(`achievements:${theirsAfter.id + 1}`)}`)
    assert.deepEqual(
      below.data.map((item) => item.id),
      [ours.id],
    )
  })
})
