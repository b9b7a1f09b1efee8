/**
 * The staff console's Designs pages, previews and co-issuers over real HTTP (`issuer.fetch`) on real SQLite
 * (docs/admin-console.md § Designs, § Previews, § Co-issuers): a PNG design made from a multipart form,
 * chosen on a template with a Korean name, previewed as the PNG it is and as a PDF certificate for a
 * sample recipient (read by poppler's pdftotext, not by clubcred); co-issuers added and removed as the
 * API reads them; the API's image problems beside the file field; the session's club only; CSRF.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createPdfRenderer } from '../../adapters/pdf/index.ts'
import { openConsole, templateForm, type Console } from '../support/admin-console.ts'
import { samplePng } from '../support/png-samples.ts'
import { pdfText, pngChunks, skipWithoutPoppler } from '../support/file-api.ts'

type Session = { cookie: string; csrf: string }

/** POSTs a multipart form as a browser does (the boundary chosen by FormData), from the public origin. */
async function postMultipart(app: Console, path: string, fields: Record<string, string | File>, cookie: string, origin = app.origin): Promise<Response> {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.append(name, value)
  return app.issuer.fetch(new Request(`${app.origin}${path}`, { method: 'POST', headers: { origin, cookie }, body }))
}

const pngFile = (bytes: Uint8Array, name = 'badge.png') => new File([bytes as Uint8Array<ArrayBuffer>], name, { type: 'image/png' })
const PNG = samplePng({ width: 64, height: 48 })
const TEMPLATE_NAME = '체스 마스터 과정'

const idAfter = (response: Response, path: RegExp) => Number(path.exec(response.headers.get('location') ?? '')?.[1])

describe('staff console: designs, previews and co-issuers', { skip: skipWithoutPoppler }, () => {
  let app: Console
  let chess: Session
  let go: Session
  let badgeDesign: number
  let certificateDesign: number
  let template: number
  before(async () => {
    app = await openConsole({ certificates: createPdfRenderer() })
    await app.adminWithPassword('chess', 'staff@chess.example')
    await app.adminWithPassword('go', 'staff@go.example')
    chess = await app.login('staff@chess.example')
    go = await app.login('staff@go.example')
  })
  after(() => app.close())

  it('makes a PNG badge design from a multipart form through the API operation, and shows it', async () => {
    const response = await postMultipart(app, '/admin/designs/new', { csrf: chess.csrf, kind: 'badge', name: '금색 배지', image: pngFile(PNG) }, chess.cookie)
    assert.equal(response.status, 303, await response.clone().text())
    badgeDesign = idAfter(response, /\/admin\/designs\/(\d+)\?done=created$/)
    const stored = await app.issuer.designs.read('chess', badgeDesign)
    assert.equal(stored.kind, 'badge')
    assert.equal(stored.name, '금색 배지')
    const image = await app.issuer.verification.image(stored.imageUrl!.split('/').pop()!)
    assert.deepStrictEqual([...image.bytes], [...PNG], 'the bytes uploaded are the image stored')

    const page = await (await app.get(`/admin/designs/${badgeDesign}?done=created`, chess.cookie)).text()
    assert.match(page, /디자인을 만들었습니다/)
    assert.match(page, new RegExp(`<img class="preview" src="/admin/designs/${badgeDesign}/preview\\?format=png"`))
    assert.match(page, /enctype="multipart\/form-data"/)
    const list = await (await app.get('/admin/designs', chess.cookie)).text()
    assert.match(list, new RegExp(`<a href="/admin/designs/${badgeDesign}">금색 배지</a>`))
    assert.match(await (await app.get('/admin/', chess.cookie)).text(), /href="\/admin\/designs"/, 'the menu links the designs')
  })

  it('makes a certificate design with its layout from the form, and previews it for a sample recipient', async () => {
    const response = await postMultipart(
      app,
      '/admin/designs/new',
      {
        csrf: chess.csrf,
        kind: 'certificate',
        name: '세로 인증서',
        orientation: 'portrait',
        primaryColor: '#336699',
        textColor: '#111111',
        backgroundColor: '#fffff0',
        'show.description': 'on',
        'show.qrCode': 'on',
        logo: pngFile(samplePng({ width: 8, height: 8 }), 'logo.png'),
      },
      chess.cookie,
    )
    assert.equal(response.status, 303, await response.clone().text())
    certificateDesign = idAfter(response, /\/admin\/designs\/(\d+)\?done=created$/)
    const { layout } = await app.issuer.designs.read('chess', certificateDesign)
    assert.equal(layout?.orientation, 'portrait')
    assert.deepStrictEqual([layout?.primaryColor, layout?.textColor, layout?.backgroundColor], ['#336699', '#111111', '#fffff0'])
    assert.deepStrictEqual(layout?.show, { description: true, criteria: false, coIssuers: false, qrCode: true }, 'an unticked box is false')
    assert.ok(layout?.logoUrl)
    const page = await (await app.get(`/admin/designs/${certificateDesign}`, chess.cookie)).text()
    assert.match(page, /<input id="primaryColor" name="primaryColor" type="color" value="#336699"/)
    assert.match(page, /name="removeLogo"/, 'a logo set can be removed')

    const edited = await postMultipart(
      app,
      `/admin/designs/${certificateDesign}`,
      {
        csrf: chess.csrf,
        kind: 'certificate',
        name: '세로 인증서 2',
        orientation: 'portrait',
        primaryColor: '#336699',
        textColor: '#111111',
        backgroundColor: '#fffff0',
        removeLogo: 'on',
      },
      chess.cookie,
    )
    assert.equal(edited.status, 303)
    assert.equal(edited.headers.get('location'), `/admin/designs/${certificateDesign}?done=saved`)
    const patched = await app.issuer.designs.read('chess', certificateDesign)
    assert.equal(patched.name, '세로 인증서 2')
    assert.equal(patched.layout?.logoUrl, null)
    assert.equal(patched.layout?.show.qrCode, false)

    const pdf = await app.get(`/admin/designs/${certificateDesign}/preview?format=pdf`, chess.cookie)
    assert.equal(pdf.status, 200)
    assert.equal(pdf.headers.get('content-type'), 'application/pdf')
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()))
    assert.match(text, /홍길동 \/ Sample Recipient/)
    assert.match(text, /견본 SAMPLE/)
    assert.equal((await app.get(`/admin/designs/${certificateDesign}/preview?format=png`, chess.cookie)).status, 404, 'a certificate design has no badge')
  })

  it('previews a template with a Korean name and the PNG design: the PNG as uploaded, and the PDF with its name and the sample recipient', async () => {
    const created = await app.post(
      '/admin/templates/new',
      templateForm({
        csrf: chess.csrf,
        name: TEMPLATE_NAME,
        description: '체스 마스터 과정을 마쳤습니다.',
        achievementBadgeDesignId: String(badgeDesign),
        achievementCertificateDesignId: String(certificateDesign),
      }),
      { cookie: chess.cookie },
    )
    assert.equal(created.status, 303, await created.clone().text())
    template = idAfter(created, /\/admin\/templates\/(\d+)\?done=created$/)
    assert.equal((await app.issuer.achievements.read('chess', template)).achievementBadgeDesignId, badgeDesign)

    const page = await (await app.get(`/admin/templates/${template}`, chess.cookie)).text()
    assert.match(page, new RegExp(`<img class="preview" src="/admin/templates/${template}/preview\\?format=png"`))
    assert.match(page, new RegExp(`href="/admin/templates/${template}/preview\\?format=pdf"`))

    const png = await app.get(`/admin/templates/${template}/preview?format=png`, chess.cookie)
    assert.equal(png.status, 200)
    assert.equal(png.headers.get('content-type'), 'image/png')
    const bytes = new Uint8Array(await png.arrayBuffer())
    const header = pngChunks(bytes)[0]!
    assert.equal(header.type, 'IHDR')
    const view = new DataView(header.data.buffer, header.data.byteOffset)
    assert.deepStrictEqual([view.getUint32(0), view.getUint32(4)], [64, 48])
    assert.ok(!pngChunks(bytes).some((chunk) => chunk.type === 'iTXt'), 'nothing is baked into a preview')

    const pdf = await app.get(`/admin/templates/${template}/preview?format=pdf`, chess.cookie)
    assert.equal(pdf.status, 200)
    const pdfBytes = new Uint8Array(await pdf.arrayBuffer())
    assert.equal(new TextDecoder().decode(pdfBytes.subarray(0, 5)), '%PDF-')
    const text = pdfText(pdfBytes)
    assert.ok(text.includes(TEMPLATE_NAME), text)
    assert.match(text, /홍길동 \/ Sample Recipient/)
    assert.equal((await app.issuer.issuances.list('chess')).data.length, 0, 'a preview stores no issuance')
  })

  it('shows the PNG preview of an SVG design as its SVG', async () => {
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>'], 'b.svg', {
      type: 'image/svg+xml',
    })
    const created = await postMultipart(app, '/admin/designs/new', { csrf: chess.csrf, kind: 'badge', name: 'SVG 배지', image: svg }, chess.cookie)
    const id = idAfter(created, /\/admin\/designs\/(\d+)\?/)
    const png = await app.get(`/admin/designs/${id}/preview?format=png`, chess.cookie)
    assert.equal(png.status, 303)
    assert.equal(png.headers.get('location'), `/admin/designs/${id}/preview?format=svg`)
    const svgPreview = await app.get(`/admin/designs/${id}/preview?format=svg`, chess.cookie)
    assert.equal(svgPreview.headers.get('content-type'), 'image/svg+xml; charset=utf-8')
    assert.match(svgPreview.headers.get('content-security-policy') ?? '', /default-src 'none'/)
    assert.match(await svgPreview.text(), /<circle/)
  })

  it("shows the API's problem of a bad PNG beside the file field, and stores nothing", async () => {
    const before_ = (await app.issuer.designs.list('chess')).data.length
    const notPng = new File(['GIF89a not a png'], 'fake.png', { type: 'image/png' })
    const response = await postMultipart(app, '/admin/designs/new', { csrf: chess.csrf, kind: 'badge', name: '깨진 배지', image: notPng }, chess.cookie)
    assert.equal(response.status, 422)
    const page = await response.text()
    assert.match(page, /<input id="image" name="image" type="file"[^>]* aria-invalid="true" aria-describedby="image-error/)
    assert.match(page, /<p class="error" id="image-error">[^]*<code>image-not-png<\/code>/)
    assert.match(page, /value="깨진 배지"/, 'the form as sent')

    const tooWide = pngFile(samplePng({ width: 1025, height: 1, colourType: 0 }))
    const wide = await postMultipart(app, '/admin/designs/new', { csrf: chess.csrf, kind: 'badge', name: '넓은 배지', image: tooWide }, chess.cookie)
    assert.equal(wide.status, 422)
    assert.match(await wide.text(), /id="image-error">[^]*<code>image-dimensions<\/code>/)
    assert.equal((await app.issuer.designs.list('chess')).data.length, before_)
  })

  it("adds and removes a partner co-issuer from the template's page, as the API's template read shows", async () => {
    const partner = { coIssuerName: '대한체스연맹', coIssuerUrl: 'https://kchess.example', coIssuerVerified: 'on' }
    const added = await app.post(`/admin/templates/${template}/co-issuers`, { csrf: chess.csrf, ...partner }, { cookie: chess.cookie })
    assert.equal(added.status, 303)
    assert.equal(added.headers.get('location'), `/admin/templates/${template}?done=co-issuer-added`)
    const read = await app.issuer.achievements.read('chess', template)
    assert.deepStrictEqual(
      read.coIssuers.map(({ name, url, role }) => ({ name, url, role })),
      [
        { name: 'chess club', url: null, role: 'representative' },
        { name: '대한체스연맹', url: 'https://kchess.example/', role: 'partner' },
      ],
    )
    assert.equal(read.coIssuers[1]!.isVerified, true)
    const page = await (await app.get(`/admin/templates/${template}`, chess.cookie)).text()
    assert.match(page, /<td>chess club<\/td>[^]*대표 발급자[^]*<td>대한체스연맹<\/td>/, 'the representative, then the partner')

    const bad = await app.post(
      `/admin/templates/${template}/co-issuers`,
      { csrf: chess.csrf, coIssuerName: '부산', coIssuerUrl: 'ftp://x' },
      { cookie: chess.cookie },
    )
    assert.equal(bad.status, 422)
    assert.match(await bad.text(), /id="coIssuerUrl-error">[^]*<code>invalid-url<\/code>/)

    const removed = await app.post(
      `/admin/templates/${template}/co-issuers/remove`,
      { csrf: chess.csrf, url: 'https://kchess.example/' },
      { cookie: chess.cookie },
    )
    assert.equal(removed.status, 303)
    assert.deepStrictEqual(
      (await app.issuer.achievements.read('chess', template)).coIssuers.map((issuer) => issuer.role),
      ['representative'],
    )
  })

  it("answers 404 for another club's design, template and previews, and changes nothing", async () => {
    for (const path of [
      `/admin/designs/${badgeDesign}`,
      `/admin/designs/${badgeDesign}/preview?format=png`,
      `/admin/templates/${template}/preview?format=png`,
      `/admin/templates/${template}/preview?format=pdf`,
    ]) {
      assert.equal((await app.get(path, go.cookie)).status, 404, path)
    }
    const patch = await postMultipart(app, `/admin/designs/${badgeDesign}`, { csrf: go.csrf, kind: 'badge', name: '가로챔' }, go.cookie)
    assert.equal(patch.status, 404)
    const add = await app.post(
      `/admin/templates/${template}/co-issuers`,
      { csrf: go.csrf, coIssuerName: 'Go', coIssuerUrl: 'https://go.example' },
      { cookie: go.cookie },
    )
    assert.equal(add.status, 404)
    assert.equal((await app.issuer.designs.read('chess', badgeDesign)).name, '금색 배지')
    assert.equal((await app.issuer.achievements.read('chess', template)).coIssuers.length, 1)
  })

  it('refuses a multipart form without the CSRF token, with another session’s, from another origin or past the body limit', async () => {
    const count = (await app.issuer.designs.list('chess')).data.length
    const fields = { kind: 'badge', name: '위조', image: pngFile(PNG) }
    assert.equal((await postMultipart(app, '/admin/designs/new', fields, chess.cookie)).status, 403)
    assert.equal((await postMultipart(app, '/admin/designs/new', { ...fields, csrf: go.csrf }, chess.cookie)).status, 403)
    assert.equal((await postMultipart(app, '/admin/designs/new', { ...fields, csrf: chess.csrf }, chess.cookie, 'https://evil.example')).status, 403)
    assert.equal((await postMultipart(app, '/admin/designs/new', { ...fields, csrf: chess.csrf }, '')).status, 303, 'no session: to login')
    const huge = pngFile(new Uint8Array(1024 * 1024 + 1))
    assert.equal(
      (await postMultipart(app, '/admin/designs/new', { ...fields, csrf: chess.csrf, image: huge }, chess.cookie)).status,
      413,
      'past the body limit',
    )
    const elsewhere = await postMultipart(app, '/admin/templates/new', { csrf: chess.csrf, name: '체스', description: 'd' }, chess.cookie)
    assert.equal(elsewhere.status, 415, 'a form without files stays url-encoded')
    const coIssuer = await app.post(
      `/admin/templates/${template}/co-issuers`,
      { csrf: go.csrf, coIssuerName: 'X', coIssuerUrl: 'https://x.example' },
      { cookie: chess.cookie },
    )
    assert.equal(coIssuer.status, 403)
    assert.equal((await app.issuer.designs.list('chess')).data.length, count)
    assert.equal((await app.issuer.achievements.read('chess', template)).coIssuers.length, 1)
  })

  it('offers no PDF preview on a server without a certificate renderer', async () => {
    const plain = await openConsole()
    try {
      await plain.adminWithPassword('chess', 'staff@chess.example')
      const staff = await plain.login('staff@chess.example')
      const id = (await plain.issuer.achievements.create('chess', { name: TEMPLATE_NAME, description: 'd' })).id
      const page = await (await plain.get(`/admin/templates/${id}`, staff.cookie)).text()
      assert.doesNotMatch(page, /format=pdf/)
      assert.match(page, /인증서 PDF를 만들지 않습니다/)
      assert.equal((await plain.get(`/admin/templates/${id}/preview?format=pdf`, staff.cookie)).status, 404)
      const png = await plain.get(`/admin/templates/${id}/preview?format=png`, staff.cookie)
      assert.equal(png.headers.get('content-type'), 'image/png', 'the built-in badge')
    } finally {
      await plain.close()
    }
  })
})
