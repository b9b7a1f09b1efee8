/**
 * Console findings of the outside review of 2026-11-28: every answer under /admin has the console's
 * frame headers, the files too (template and design previews, an issuance's files; docs/admin-console.md
 * § Sign-in); another club's template as the issuances filter is 404 (docs/admin-console.md § Issuances).
 *
 * @see docs/decisions/0042-outside-review-smaller-findings.md
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { openConsole, type Console } from '../support/admin-console.ts'

type Session = { cookie: string; csrf: string }

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>'

/** The headers against framing, caching and sniffing that every console answer has. */
function assertFrameHeaders(response: Response, what: string): void {
  assert.equal(response.headers.get('x-frame-options'), 'DENY', what)
  assert.match(response.headers.get('content-security-policy') ?? '', /(^|; )frame-ancestors 'none'($|;)/, what)
  assert.equal(response.headers.get('cache-control'), 'no-store', what)
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what)
}

describe('staff console: the review’s findings', () => {
  let app: Console
  let chess: Session
  let go: Session
  let template: number
  let svgDesign: number
  let goTemplate: number
  let issuance: number

  before(async () => {
    app = await openConsole()
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')
    template = (await app.issuer.achievements.create('chess', { name: '오프닝 과정', description: 'Openings' })).id
    goTemplate = (await app.issuer.achievements.create('go', { name: '바둑 입문', description: 'Go' })).id
    const body = new FormData()
    for (const [name, value] of Object.entries({ csrf: chess.csrf, kind: 'badge', name: 'SVG 배지' })) body.append(name, value)
    body.append('image', new File([SVG], 'b.svg', { type: 'image/svg+xml' }))
    const created = await app.issuer.fetch(
      new Request(`${app.origin}/admin/designs/new`, { method: 'POST', headers: { origin: app.origin, cookie: chess.cookie }, body }),
    )
    svgDesign = Number(/\/admin\/designs\/(\d+)\?/.exec(created.headers.get('location') ?? '')?.[1])
    const { result } = await app.issuer.issuances.issue('chess', {
      achievementFormId: template,
      mode: 'none',
      recipients: [{ externalUserId: 'a', name: '김 체스', email: 'kim@chess.example' }],
    })
    issuance = result.results[0]!.status === 'issued' ? (result.results[0] as { resourceId: number }).resourceId : NaN
    await app.issuer.worker.drain()
  })
  after(() => app.close())

  it('previews and an issuance’s files have the console’s frame headers', async () => {
    const answers: [string, string][] = [
      ['template PNG preview', `/admin/templates/${template}/preview?format=png`],
      ['design SVG preview', `/admin/designs/${svgDesign}/preview?format=svg`],
      ['issuance PNG', `/admin/issuances/${issuance}/file?format=png`],
      ['issuance SVG', `/admin/issuances/${issuance}/file?format=svg`],
    ]
    for (const [what, path] of answers) {
      const response = await app.get(path, chess.cookie)
      assert.equal(response.status, 200, `${what}: ${response.status}`)
      await response.arrayBuffer()
      assertFrameHeaders(response, what)
    }
    // An SVG keeps the API's SVG policy beside the frame rule: nothing in it runs.
    const svg = await app.get(`/admin/designs/${svgDesign}/preview?format=svg`, chess.cookie)
    assert.match(svg.headers.get('content-security-policy') ?? '', /^default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'$/)
  })

  it('the issuances list filtered by another club’s template is 404, as an unknown one', async () => {
    assert.equal((await app.get(`/admin/issuances?achievementId=${template}`, chess.cookie)).status, 200)
    const foreign = await app.get(`/admin/issuances?achievementId=${goTemplate}`, chess.cookie)
    assert.equal(foreign.status, 404)
    assertFrameHeaders(foreign, 'the 404 page')
    assert.equal((await app.get(`/admin/issuances?achievementId=999999`, chess.cookie)).status, 404)
    assert.equal((await app.get(`/admin/issuances?achievementId=${goTemplate}`, go.cookie)).status, 200, 'its own club lists it')
  })
})
