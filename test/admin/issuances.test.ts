/**
 * The staff console's Issuances pages over real HTTP (`issuer.fetch`) on real SQLite (docs/admin-console.md
 * § Issuances): the list newest first with cursor pages and the template filter, an issuance's page, the
 * revoke form with its confirmation on the API's own operation, the session's club only, the CSRF token,
 * no inline script or style.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, type Console } from '../support/admin-console.ts'

const recipients = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ externalUserId: `${prefix}-${i}`, name: `${prefix} 회원 ${i}`, email: `${prefix}.${i}@chess.example` }))

describe('staff console: issuances', () => {
  let app: Console
  let chess: { cookie: string; csrf: string }
  let go: { cookie: string; csrf: string }
  let opening: number
  let endgame: number
  /** Issuance ids in issue order. */
  const openingIds: number[] = []
  const endgameIds: number[] = []

  const issue = async (club: string, achievementFormId: number, prefix: string, count: number) => {
    const { result } = await app.issuer.issuances.issue(club, { achievementFormId, mode: 'none', recipients: recipients(prefix, count) })
    assert.equal(result.summary.ok, count)
    return result.results.map((item) => (item.status === 'issued' ? item.resourceId : NaN))
  }

  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')
    opening = (await app.issuer.achievements.create('chess', { name: '오프닝 과정', description: 'Openings' })).id
    endgame = (await app.issuer.achievements.create('chess', { name: '엔드게임 과정', description: 'Endgames' })).id
    await app.issuer.achievements.create('go', { name: '바둑 입문', description: 'Go' })
    // 32 issuances: more than one page of 20, and one template's 22 too.
    openingIds.push(...(await issue('chess', opening, 'opening', 22)))
    endgameIds.push(...(await issue('chess', endgame, 'endgame', 10)))
    await app.issuer.worker.drain()
  })
  after(() => app.close())

  const idsOn = (page: string) => [...page.matchAll(/<a href="\/admin\/issuances\/(\d+)">/g)].map((match) => Number(match[1]))

  it("lists the club's issuances newest first, 20 a page, and the next link carries the cursor", async () => {
    const response = await app.get('/admin/issuances', chess.cookie)
    assert.equal(response.status, 200)
    const first = await response.text()
    const newestFirst = [...openingIds, ...endgameIds].reverse()
    assert.deepStrictEqual(idsOn(first), newestFirst.slice(0, 20))
    assert.match(first, /endgame 회원 9/)
    assert.match(first, /<td>엔드게임 과정<\/td>/)
    assert.match(first, /href="\/admin\/issuances"/, 'the header menu links the page')
    const next = /<a href="(\/admin\/issuances\?cursor=[^"]+)">다음/.exec(first)?.[1]
    assert.ok(next, 'a next link')
    const second = await (await app.get(next.replaceAll('&amp;', '&'), chess.cookie)).text()
    assert.deepStrictEqual(idsOn(second), newestFirst.slice(20))
    assert.doesNotMatch(second, /다음 <span lang="en">Next/)
    assert.equal((await app.get('/admin/issuances')).status, 303, 'signed out: to login')
  })

  it('filters by template: a select of the club’s templates, and the next page keeps the filter', async () => {
    const page = await (await app.get(`/admin/issuances?achievementId=${endgame}`, chess.cookie)).text()
    assert.deepStrictEqual(idsOn(page), [...endgameIds].reverse())
    assert.match(page, new RegExp(`<option value="${endgame}" selected>엔드게임 과정</option>`))
    assert.match(page, new RegExp(`<option value="${opening}">오프닝 과정</option>`))
    assert.doesNotMatch(page, /바둑/)
    const first = await (await app.get(`/admin/issuances?achievementId=${opening}`, chess.cookie)).text()
    const newestFirst = [...openingIds].reverse()
    assert.deepStrictEqual(idsOn(first), newestFirst.slice(0, 20))
    const next = new RegExp(`<a href="(/admin/issuances\\?achievementId=${opening}&amp;cursor=[^"]+)">다음`).exec(first)?.[1]
    assert.ok(next, 'the next link keeps the filter')
    const second = await (await app.get(next.replaceAll('&amp;', '&'), chess.cookie)).text()
    assert.deepStrictEqual(idsOn(second), newestFirst.slice(20))
    assert.equal((await app.get('/admin/issuances?achievementId=abc', chess.cookie)).status, 404)
  })

  it('shows an issuance: recipient, template, status, dates, its files and the credential’s links', async () => {
    const id = openingIds[0]!
    const detail = await app.issuer.issuances.read('chess', id)
    const response = await app.get(`/admin/issuances/${id}`, chess.cookie)
    assert.equal(response.status, 200)
    const page = await response.text()
    assert.match(page, /opening 회원 0 &lt;opening\.0@chess\.example&gt;/)
    assert.match(page, /opening-0/)
    assert.match(page, new RegExp(`<a href="/admin/templates/${opening}">오프닝 과정</a>`))
    assert.match(page, /<span id="status" class="status-valid">유효/)
    const share = detail.credential!.shareUrl
    assert.ok(page.includes(`href="${share}"`))
    assert.ok(page.includes(`href="${share}/credential.jwt"`))
    assert.ok(page.includes(`href="${share}/credential.json"`))
    assert.ok(page.includes(`href="${detail.credential!.verifyUrl}"`))
    assert.match(page, /action="\/admin\/issuances\/\d+\/revoke"/)
    assert.ok(page.includes(`href="/admin/issuances/${id}/file?format=pdf"`))
    // The files through the session (the API's file operation): the club's own, never another club's.
    const png = await app.get(`/admin/issuances/${id}/file?format=png`, chess.cookie)
    assert.equal(png.status, 200)
    assert.equal(png.headers.get('content-type'), 'image/png')
    assert.match(png.headers.get('content-disposition') ?? '', /^attachment; /)
    assert.deepStrictEqual([...new Uint8Array(await png.arrayBuffer()).subarray(1, 4)], [0x50, 0x4e, 0x47])
    assert.equal((await app.get(`/admin/issuances/${id}/file?format=png`, go.cookie)).status, 404)
    assert.equal((await app.get(`/admin/issuances/${id}/file?format=png`)).status, 303, 'signed out: to login')
    assert.equal((await app.get('/admin/issuances/12x', chess.cookie)).status, 404)
  })

  it('revoking needs the confirmation; then it revokes, the page says so and the public verification says revoked', async () => {
    const id = openingIds[1]!
    const unconfirmed = await app.post(`/admin/issuances/${id}/revoke`, { csrf: chess.csrf, reason: '규정 위반' }, { cookie: chess.cookie })
    assert.equal(unconfirmed.status, 422)
    const again = await unconfirmed.text()
    assert.match(again, /id="confirm-error"/)
    assert.match(again, /<textarea id="reason" name="reason" rows="3">\n규정 위반<\/textarea>/)
    assert.equal((await app.issuer.issuances.read('chess', id)).status, 'valid', 'nothing changed')
    // The API's rules judge the reason: too long is shown beside the field, and nothing changes.
    const tooLong = await app.post(`/admin/issuances/${id}/revoke`, { csrf: chess.csrf, reason: '가'.repeat(501), confirm: 'yes' }, { cookie: chess.cookie })
    assert.equal(tooLong.status, 422)
    assert.match(await tooLong.text(), /<p class="error" id="reason-error">사유는 500자 이하여야 합니다/)
    assert.equal((await app.issuer.issuances.read('chess', id)).status, 'valid', 'nothing changed')

    const confirmed = await app.post(`/admin/issuances/${id}/revoke`, { csrf: chess.csrf, reason: '규정 위반', confirm: 'yes' }, { cookie: chess.cookie })
    assert.equal(confirmed.status, 303)
    assert.equal(confirmed.headers.get('location'), `/admin/issuances/${id}?done=revoked`)
    const stored = await app.issuer.issuances.read('chess', id)
    assert.equal(stored.status, 'revoked')
    assert.equal(stored.revocationReason, '규정 위반')
    const page = await (await app.get(`/admin/issuances/${id}?done=revoked`, chess.cookie)).text()
    assert.match(page, /발급을 취소했습니다/)
    assert.match(page, /<span id="status" class="status-revoked">/)
    assert.doesNotMatch(page, /\/revoke"/, 'no revoke form once revoked')
    const verify = await app.issuer.fetch(new Request(stored.credential!.verifyUrl))
    assert.equal(verify.status, 200)
    assert.equal(((await verify.json()) as { status: string }).status, 'revoked')
  })

  it("another club's admin gets 404 for the page and the revoke POST, and nothing changes", async () => {
    const id = openingIds[2]!
    assert.equal((await app.get(`/admin/issuances/${id}`, go.cookie)).status, 404)
    const post = await app.post(`/admin/issuances/${id}/revoke`, { csrf: go.csrf, confirm: 'yes' }, { cookie: go.cookie })
    assert.equal(post.status, 404)
    assert.equal((await app.issuer.issuances.read('chess', id)).status, 'valid')
    const list = await (await app.get('/admin/issuances', go.cookie)).text()
    assert.deepStrictEqual(idsOn(list), [])
  })

  it('a POST without the CSRF token, with another session’s, or from another origin changes nothing', async () => {
    const id = openingIds[3]!
    const missing = await app.post(`/admin/issuances/${id}/revoke`, { confirm: 'yes' }, { cookie: chess.cookie })
    assert.equal(missing.status, 403)
    const foreign = await app.post(`/admin/issuances/${id}/revoke`, { csrf: go.csrf, confirm: 'yes' }, { cookie: chess.cookie })
    assert.equal(foreign.status, 403)
    const cross = await app.post(
      `/admin/issuances/${id}/revoke`,
      { csrf: chess.csrf, confirm: 'yes' },
      { cookie: chess.cookie, headers: { origin: 'https://evil.example' } },
    )
    assert.equal(cross.status, 403)
    assert.equal((await app.issuer.issuances.read('chess', id)).status, 'valid')
  })

  it('the pages carry no inline script or style, under the console’s CSP', async () => {
    for (const path of ['/admin/issuances', `/admin/issuances/${openingIds[4]}`]) {
      const response = await app.get(path, chess.cookie)
      assert.equal(response.status, 200, path)
      assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'; style-src 'self'/)
      const page = await response.text()
      assert.doesNotMatch(page, /<script|<style|\sstyle=|\son[a-z]+=/i, path)
    }
  })

  it('filters by status and searches by e-mail, external id or name start, combined with the template, and every next link keeps them', async () => {
    // One that expires (signed, then its time passes) and one still waiting to be signed.
    const [expiring] = (
      await app.issuer.issuances.issue('chess', {
        achievementFormId: endgame,
        mode: 'none',
        expiresAt: new Date(app.clock.now() + 2000).toISOString(),
        recipients: [{ name: 'Zed Expired', email: 'zed@chess.example' }],
      })
    ).result.results.map((item) => (item.status === 'issued' ? item.resourceId : NaN))
    await app.issuer.worker.drain()
    app.clock.advance(3000)
    const [pending] = await issue('chess', opening, 'waiting', 1)
    const list = async (query: string, status = 200) => {
      const response = await app.get(`/admin/issuances?${query}`, chess.cookie)
      assert.equal(response.status, status, query)
      return response.text()
    }
    assert.deepStrictEqual(idsOn(await list('status=revoked')), [openingIds[1]], 'revoked by the test above')
    assert.deepStrictEqual(idsOn(await list('status=expired')), [expiring])
    assert.deepStrictEqual(idsOn(await list('status=pending')), [pending])
    assert.deepStrictEqual(idsOn(await list(`status=valid&achievementId=${endgame}`)), [...endgameIds].reverse())
    assert.match(await list('status=expired'), /<option value="expired" selected>만료 · Expired<\/option>/)

    assert.deepStrictEqual(idsOn(await list('by=email&q=%20Opening.3%40CHESS.example%20')), [openingIds[3]], 'whole, any case, trimmed')
    assert.deepStrictEqual(idsOn(await list('by=email&q=opening.3%40chess')), [], 'not a part of it')
    assert.deepStrictEqual(idsOn(await list('by=externalUserId&q=endgame-4')), [endgameIds[4]])
    // By the start of the name, in name order: 1, 10, 11, ..., 19.
    const ones = [1, ...Array.from({ length: 10 }, (_, i) => 10 + i)].map((n) => openingIds[n])
    const byName = await list(`by=name&q=${encodeURIComponent('OPENING 회원 1')}`)
    assert.deepStrictEqual(idsOn(byName), ones)
    assert.match(byName, /<input id="q" name="q" type="search"[^>]* value="OPENING 회원 1"/)
    assert.match(byName, /이름순/)
    assert.deepStrictEqual(idsOn(await list(`by=name&status=revoked&q=${encodeURIComponent('opening 회원 1')}`)), [openingIds[1]])
    assert.deepStrictEqual(idsOn(await list(`by=name&achievementId=${endgame}&q=opening`)), [])

    // 21 valid issuances of the opening template whose name starts with "opening": two pages, all filters kept.
    const first = await list(`q=opening&by=name&status=valid&achievementId=${opening}`)
    const next = /<a href="([^"]+)">다음/.exec(first)?.[1]?.replaceAll('&amp;', '&')
    assert.ok(next, 'a next link')
    assert.deepStrictEqual([...new URL(next, app.origin).searchParams.keys()].sort(), ['achievementId', 'by', 'cursor', 'q', 'status'])
    const second = await (await app.get(next, chess.cookie)).text()
    const seen = [...idsOn(first), ...idsOn(second)]
    assert.equal(seen.length, 21)
    assert.deepStrictEqual(new Set(seen), new Set(openingIds.filter((id) => id !== openingIds[1])))

    // Filters no form makes: the form again, each refusal beside its field; nothing listed.
    const tooLong = await list(`q=${'가'.repeat(255)}`, 422)
    assert.match(tooLong, /<p class="error" id="q-error">검색어는 254자 이하여야 합니다/)
    assert.deepStrictEqual(idsOn(tooLong), [])
    assert.match(await list('status=lost', 422), /id="status-error"/)
    assert.match(await list('by=phone&q=1', 422), /id="by-error"/)
    // Another club finds none of these.
    const other = await (await app.get('/admin/issuances?by=email&q=opening.3%40chess.example', go.cookie)).text()
    assert.deepStrictEqual(idsOn(other), [])
  })
})
