/**
 * The staff console's Issue form over real HTTP (`issuer.fetch`) on real SQLite (docs/admin-console.md
 * § Issue): one recipient through the API's own issue operation, its batch item deciding the answer, the
 * session's club only, the CSRF token, no inline script or style.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, type Console } from '../support/admin-console.ts'

describe('staff console: issue to one recipient', () => {
  let app: Console
  let chess: { cookie: string; csrf: string }
  let opening: number
  let goTemplate: number

  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    opening = (await app.issuer.achievements.create('chess', { name: '오프닝 과정', description: 'Openings' })).id
    goTemplate = (await app.issuer.achievements.create('go', { name: '바둑 입문', description: 'Go' })).id
  })
  after(() => app.close())

  const count = async (club: string) => (await app.issuer.issuances.list(club, { limit: '100' })).data.length
  const issue = (form: Record<string, string>, csrf = chess.csrf) =>
    app.post('/admin/issue', { csrf, achievementFormId: String(opening), mode: 'none', ...form }, { cookie: chess.cookie })

  it('the form offers the club’s templates and the menu links it', async () => {
    const response = await app.get('/admin/issue', chess.cookie)
    assert.equal(response.status, 200)
    const page = await response.text()
    assert.match(page, new RegExp(`<option value="${opening}">오프닝 과정</option>`))
    assert.doesNotMatch(page, /바둑/)
    assert.match(page, /<a href="\/admin\/issue">발급 <span lang="en">Issue<\/span><\/a>/)
    assert.equal((await app.get('/admin/issue')).status, 303, 'signed out: to login')
  })

  it('issues to one recipient: 303 to its page, which confirms it, and the list shows it', async () => {
    const response = await issue({ name: '김민지', email: 'minji@chess.example', externalUserId: 'member-1' })
    assert.equal(response.status, 303)
    const location = response.headers.get('location') ?? ''
    const id = Number(/^\/admin\/issuances\/(\d+)\?done=issued$/.exec(location)?.[1])
    assert.ok(id > 0, location)
    const detail = await app.issuer.issuances.read('chess', id)
    assert.deepStrictEqual([detail.recipient.email, detail.recipient.externalUserId, detail.achievementId], ['minji@chess.example', 'member-1', opening])
    const page = await (await app.get(location, chess.cookie)).text()
    assert.match(page, /<p class="done" role="status">발급했습니다. <span lang="en">Issued.<\/span><\/p>/)
    const list = await (await app.get('/admin/issuances', chess.cookie)).text()
    assert.match(list, new RegExp(`<a href="/admin/issuances/${id}">김민지</a>`))
  })

  it('an invalid e-mail: 422 beside the field, the values kept, nothing stored', async () => {
    const before = await count('chess')
    const response = await issue({ name: '박서준', email: 'not-an-address', externalUserId: 'member-2' })
    assert.equal(response.status, 422)
    const page = await response.text()
    assert.match(page, /<input id="email" name="email" type="email" value="not-an-address" required aria-invalid="true" aria-describedby="email-error">/)
    assert.match(
      page,
      /<p class="error" id="email-error">이메일 주소가 올바르지 않습니다. <span lang="en">The e-mail address is not valid.<\/span> <code>invalid-email<\/code><\/p>/,
    )
    assert.match(page, /value="박서준"/)
    assert.match(page, /value="member-2"/)
    assert.match(page, new RegExp(`<option value="${opening}" selected>`))
    assert.equal(await count('chess'), before)
  })

  it('the same recipient twice: the second is refused as already issued, linking the issuance held', async () => {
    const first = await issue({ name: '이하늘', email: 'haneul@chess.example' })
    assert.equal(first.status, 303)
    const held = /\/admin\/issuances\/(\d+)/.exec(first.headers.get('location') ?? '')![1]
    const before = await count('chess')
    const second = await issue({ name: '이하늘', email: 'haneul@chess.example' })
    assert.equal(second.status, 422)
    const page = await second.text()
    assert.match(
      page,
      /<p class="error" id="form-error">이 사람은 이미 이 배지를 받았습니다. <span lang="en">The recipient already holds this achievement.<\/span> <code>already-issued<\/code>/,
    )
    assert.match(page, new RegExp(`<a href="/admin/issuances/${held}">`))
    assert.equal(await count('chess'), before)
  })

  it('another club’s template is not found, and nothing is stored in either club', async () => {
    const [chessBefore, goBefore] = [await count('chess'), await count('go')]
    const response = await issue({ achievementFormId: String(goTemplate), name: '최바둑', email: 'go@chess.example' })
    assert.equal(response.status, 404)
    assert.match(await response.text(), /<p class="error" id="achievementFormId-error">템플릿을 찾을 수 없습니다./)
    assert.deepStrictEqual([await count('chess'), await count('go')], [chessBefore, goBefore])
  })

  it('no template chosen: 422 beside the select', async () => {
    const response = await issue({ achievementFormId: '', name: '정하나', email: 'hana@chess.example' })
    assert.equal(response.status, 422)
    assert.match(await response.text(), /<p class="error" id="achievementFormId-error">템플릿을 선택하세요./)
  })

  it('a POST without the CSRF token, with a wrong one, or from another origin changes nothing', async () => {
    const before = await count('chess')
    const form = { achievementFormId: String(opening), mode: 'none', name: '한결', email: 'gyeol@chess.example' }
    assert.equal((await app.post('/admin/issue', form, { cookie: chess.cookie })).status, 403)
    assert.equal((await issue({ name: '한결', email: 'gyeol@chess.example' }, 'wrong')).status, 403)
    const cross = await app.post('/admin/issue', { ...form, csrf: chess.csrf }, { cookie: chess.cookie, headers: { origin: 'https://evil.example' } })
    assert.equal(cross.status, 403)
    assert.equal(await count('chess'), before)
  })

  it('the form and its refusal carry no inline script or style, under the console’s CSP', async () => {
    const responses = [await app.get('/admin/issue', chess.cookie), await issue({ name: 'x', email: 'bad' })]
    assert.deepStrictEqual(
      responses.map((response) => response.status),
      [200, 422],
    )
    for (const response of responses) {
      assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'; style-src 'self'/)
      assert.doesNotMatch(await response.text(), /<script|<style|\sstyle=|\son[a-z]+=/i)
    }
  })
})
