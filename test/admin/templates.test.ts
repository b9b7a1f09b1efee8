/**
 * The staff console's Templates pages over real HTTP (`issuer.fetch`) on real SQLite (docs/admin-console.md
 * § Templates): the list, create and edit on the API's own operations, the API's errors beside their
 * fields, the session's club only, the CSRF token, no inline script or style.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, templateForm, type Console } from '../support/admin-console.ts'
import { svgBase64 } from '../support/legacy-forms.ts'

describe('staff console: templates', () => {
  let app: Console
  let chess: { cookie: string; csrf: string }
  let go: { cookie: string; csrf: string }
  let chessTemplate: number
  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')
    chessTemplate = (await app.issuer.achievements.create('chess', { name: '체스 입문', description: 'Beginners', tag: ['chess'] })).id
    await app.issuer.achievements.create('chess', { name: '체스 중급', nameEn: 'Chess intermediate', description: 'Intermediate' })
    await app.issuer.achievements.create('go', { name: '바둑 입문', description: 'Go' })
  })
  after(() => app.close())

  it("lists the session club's templates, newest first, each linked, with a link to a new one", async () => {
    const response = await app.get('/admin/templates', chess.cookie)
    assert.equal(response.status, 200)
    const page = await response.text()
    const first = page.indexOf('체스 중급')
    const second = page.indexOf('체스 입문')
    assert.ok(first > 0 && second > first, 'newest first')
    assert.match(page, new RegExp(`<a href="/admin/templates/${chessTemplate}">체스 입문</a>`))
    assert.match(page, /href="\/admin\/templates\/new"/)
    assert.doesNotMatch(page, /바둑/)
    assert.equal((await app.get('/admin/templates')).status, 303)
  })

  it('creates a template with a Korean name: 303 to its page, which confirms, stored through the API’s rules', async () => {
    const created = await app.post(
      '/admin/templates/new',
      templateForm({
        csrf: chess.csrf,
        name: '체스 고급',
        nameEn: 'Advanced chess',
        type: 'award',
        description: '첫 줄\r\n둘째 줄',
        tag: ' 체스 \r\nstrategy\r\n\r\n',
        'requirement.0.type': 'exam_pass',
        'requirement.0.description': '시험 통과',
        'requirement.1.url': 'https://chess.example/rules',
        prefix: 'CHESS',
        programName: '체스 교실',
        programPublic: 'on',
      }),
      { cookie: chess.cookie },
    )
    assert.equal(created.status, 303)
    const location = created.headers.get('location')!
    const id = Number(/^\/admin\/templates\/(\d+)\?done=created$/.exec(location)?.[1])
    const stored = await app.issuer.achievements.read('chess', id)
    assert.equal(stored.name, '체스 고급')
    assert.equal(stored.nameEn, 'Advanced chess')
    assert.equal(stored.type, 'award')
    assert.equal(stored.description, '첫 줄\n둘째 줄')
    assert.equal(stored.imprintDescription, stored.description)
    assert.deepStrictEqual(stored.tag, ['체스', 'strategy'])
    assert.deepStrictEqual(
      stored.criteria.requirements.map(({ type, description, url }) => ({ type, description, url })),
      [
        { type: 'exam_pass', description: '시험 통과', url: null },
        { type: null, description: null, url: 'https://chess.example/rules' },
      ],
    )
    assert.equal(stored.prefix, 'CHESS')
    assert.deepStrictEqual(stored.program, { name: '체스 교실', url: null, isPublic: true })
    // A long Korean description is far over the sign-in forms' 16 KiB once percent-encoded.
    const long = await app.post('/admin/templates/new', templateForm({ csrf: chess.csrf, name: '긴 설명', description: '가'.repeat(10_000) }), {
      cookie: chess.cookie,
    })
    assert.equal(long.status, 303)
    const page = await (await app.get(location, chess.cookie)).text()
    assert.match(page, /템플릿을 만들었습니다/)
    assert.match(page, /<input id="name" name="name" type="text" value="체스 고급"/)
  })

  it('a refused form is 422 with each error beside its field, the values kept, and nothing stored', async () => {
    const before = await app.issuer.achievements.list('chess')
    const refused = await app.post(
      '/admin/templates/new',
      templateForm({
        csrf: chess.csrf,
        name: '체스 <특강>',
        nameEn: '체스',
        description: '',
        tag: 'a, b',
        'requirement.0.type': 'exam_pass',
      }),
      { cookie: chess.cookie },
    )
    assert.equal(refused.status, 422)
    const page = await refused.text()
    assert.match(page, /<input id="name" name="name" type="text" value="체스 &lt;특강&gt;" required>/)
    assert.match(
      page,
      /<input id="nameEn" name="nameEn" type="text" value="체스" aria-invalid="true" aria-describedby="nameEn-error">\n<p class="error" id="nameEn-error">[^<]*<span lang="en">Latin script only.<\/span> <code>en-text-not-latin<\/code>/,
    )
    assert.match(page, /<textarea id="description"[^>]*aria-invalid="true"[^>]*>\n<\/textarea>\n<p class="error" id="description-error">필수 항목입니다/)
    assert.match(
      page,
      /<textarea id="tag"[^>]*aria-invalid="true"[^>]*>\na, b<\/textarea>\n<p class="error" id="tag-error">[^\n]*<code>tag-contains-comma<\/code>/,
    )
    assert.match(page, /id="requirement-0-description-error">[^\n]*<code>requirement-empty<\/code>/)
    assert.match(page, /<option value="exam_pass" selected>/)
    assert.deepStrictEqual((await app.issuer.achievements.list('chess')).data, before.data)
  })

  it('edits a template: 303 with a confirmation, and the change stored', async () => {
    const { id } = await app.issuer.achievements.create('chess', { name: '체스 퍼즐', description: 'Puzzles', tag: ['tactics'] })
    const editPage = await (await app.get(`/admin/templates/${id}`, chess.cookie)).text()
    assert.match(editPage, /<textarea id="tag"[^>]*>\ntactics<\/textarea>/)
    const saved = await app.post(
      `/admin/templates/${id}`,
      templateForm({ csrf: chess.csrf, name: '체스 퍼즐 II', description: 'More puzzles', tag: 'tactics\nendgame' }),
      {
        cookie: chess.cookie,
      },
    )
    assert.equal(saved.status, 303)
    assert.equal(saved.headers.get('location'), `/admin/templates/${id}?done=saved`)
    const stored = await app.issuer.achievements.read('chess', id)
    assert.equal(stored.name, '체스 퍼즐 II')
    assert.equal(stored.description, 'More puzzles')
    assert.deepStrictEqual(stored.tag, ['tactics', 'endgame'])
    assert.match(await (await app.get(saved.headers.get('location')!, chess.cookie)).text(), /저장했습니다/)
    // A refused edit keeps the stored template as it was.
    const refused = await app.post(`/admin/templates/${id}`, templateForm({ csrf: chess.csrf, name: '', description: 'Changed' }), { cookie: chess.cookie })
    assert.equal(refused.status, 422)
    assert.match(await refused.text(), /id="name-error">필수 항목입니다/)
    assert.equal((await app.issuer.achievements.read('chess', id)).description, 'More puzzles')
  })

  it("another club's admin gets 404 for the template's page and its POST, which changes nothing", async () => {
    assert.equal((await app.get(`/admin/templates/${chessTemplate}`, chess.cookie)).status, 200)
    const page = await app.get(`/admin/templates/${chessTemplate}`, go.cookie)
    assert.equal(page.status, 404)
    assert.doesNotMatch(await page.text(), /체스/)
    const post = await app.post(`/admin/templates/${chessTemplate}`, templateForm({ csrf: go.csrf, name: 'taken', description: 'taken' }), {
      cookie: go.cookie,
    })
    assert.equal(post.status, 404)
    assert.equal((await app.issuer.achievements.read('chess', chessTemplate)).name, '체스 입문')
    assert.equal((await app.get('/admin/templates/999999', chess.cookie)).status, 404)
    assert.equal((await app.get('/admin/templates/abc', chess.cookie)).status, 404)
  })

  it('a POST without the CSRF token, or with another session’s, is 403 and stores nothing', async () => {
    const count = (await app.issuer.achievements.list('chess', { limit: '100' })).data.length
    const without = await app.post('/admin/templates/new', templateForm({ name: '몰래', description: 'sneaky' }), { cookie: chess.cookie })
    assert.equal(without.status, 403)
    const foreign = await app.post('/admin/templates/new', templateForm({ csrf: go.csrf, name: '몰래', description: 'sneaky' }), { cookie: chess.cookie })
    assert.equal(foreign.status, 403)
    const edit = await app.post(`/admin/templates/${chessTemplate}`, templateForm({ name: '몰래', description: 'sneaky' }), { cookie: chess.cookie })
    assert.equal(edit.status, 403)
    assert.equal((await app.issuer.achievements.list('chess', { limit: '100' })).data.length, count)
    assert.equal((await app.issuer.achievements.read('chess', chessTemplate)).name, '체스 입문')
  })

  it('the pages carry the strict CSP and no inline script or style', async () => {
    for (const path of ['/admin/templates', '/admin/templates/new', `/admin/templates/${chessTemplate}`]) {
      const response = await app.get(path, chess.cookie)
      assert.equal(response.status, 200, path)
      assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/)
      assert.doesNotMatch(await response.text(), /<script|<style|style="|\son[a-z]+="/)
    }
  })
})

describe('staff console: templates and designs', () => {
  let app: Console
  let chess: { cookie: string; csrf: string }
  let badge: number
  let goBadge: number
  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    const image = (label: string) => ({ mediaType: 'image/svg+xml' as const, data: svgBase64(label) })
    badge = (await app.issuer.designs.create('chess', { kind: 'badge', name: '금색 배지', image: image('chess') })).id
    goBadge = (await app.issuer.designs.create('go', { kind: 'badge', name: 'go badge', image: image('go') })).id
  })
  after(() => app.close())

  it("offers the club's badge designs, stores the one chosen, and shows another club's as design-not-found beside the choice", async () => {
    const page = await (await app.get('/admin/templates/new', chess.cookie)).text()
    assert.match(page, new RegExp(`<option value="${badge}">금색 배지</option>`))
    assert.doesNotMatch(page, /go badge/)
    const created = await app.post(
      '/admin/templates/new',
      templateForm({
        csrf: chess.csrf,
        name: '배지',
        description: 'With a badge',
        achievementBadgeDesignId: String(badge),
        achievementCertificateDesignId: '',
      }),
      { cookie: chess.cookie },
    )
    assert.equal(created.status, 303)
    const id = Number(/templates\/(\d+)/.exec(created.headers.get('location')!)![1])
    assert.equal((await app.issuer.achievements.read('chess', id)).achievementBadgeDesignId, badge)
    const refused = await app.post(
      `/admin/templates/${id}`,
      templateForm({
        csrf: chess.csrf,
        name: '배지',
        description: 'With a badge',
        achievementBadgeDesignId: String(goBadge),
        achievementCertificateDesignId: '',
      }),
      { cookie: chess.cookie },
    )
    assert.equal(refused.status, 422)
    assert.match(await refused.text(), /<\/select>\n<p class="error" id="achievementBadgeDesignId-error">[^\n]*<code>design-not-found<\/code>/)
    assert.equal((await app.issuer.achievements.read('chess', id)).achievementBadgeDesignId, badge)
  })
})
