/**
 * The share page (docs/api.md §2.7 `shareUrl`, §4.11; docs/decisions/0001-addresses.md): routed by the Host
 * header `{club}.{share_url_host}`, in-process through `issuer.fetch`. What the page shows (escaped), its
 * live verdict (valid, revoked, expired, signature invalid), its downloads, its headers, and the 404
 * pages.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { openApi, openVerificationApi, type Api } from '../../support/api-harness.ts'
import { createTestClock, TEST_EPOCH, type TestClock } from '../../support/clock.ts'
import { createTemplate, issuancePath, issue, readCredential, readIssuance } from '../../support/issuance-api.ts'
import type { Json } from '../../support/json.ts'
import { setStoredProof } from '../../support/stored-proof.ts'

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
const SHARE_ORIGIN = 'http://chess.localhost:8787'
const DAY = 24 * 60 * 60 * 1000

const HOSTILE_NAME = `<script>alert(1)</script> & "체스" 'opening'`
const HOSTILE_RECIPIENT = `Kim <img src=x onerror=alert(2)> "Minsu"`
const RECIPIENT_EMAIL = 'minsu.kim@chess.example'

interface Page {
  status: number
  headers: Headers
  text: string
}

let api: Api
let clock: TestClock

beforeEach(async () => {
  clock = createTestClock()
  api = await openApi({ clock, proofs: true })
})
afterEach(async () => {
  await api.close()
})

async function get(url: string, init: RequestInit = {}): Promise<Page> {
  const response = await api.issuer.fetch(new Request(url, init))
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** Issues one credential of a fresh template and waits for it; returns its issuance id and pointer. */
async function issued(template: Record<string, unknown> = {}, request: Record<string, unknown> = {}) {
  const templateId = await createTemplate(api, {
    name: '체스 입문',
    nameEn: 'Chess basics',
    description: '기본 규칙과\n오프닝 원리를 배웠습니다.',
    tag: ['전략', 'tactics'],
    criteria: {
      requirements: [
        { type: 'course_complete', description: '입문 과정 수료' },
        { type: 'score', description: 'Score 80 or more', url: 'https://chess.example/exam?a=1&b=2' },
      ],
    },
    ...template,
  })
  const batch = await issue(api, {
    achievementFormId: templateId,
    mode: 'none',
    recipients: [{ externalUserId: 'm-1', name: 'Kim Minsu', email: RECIPIENT_EMAIL }],
    ...request,
  })
  const issuanceId = batch.results[0].resourceId as number
  await api.issuer.worker.drain()
  const pointer = (await readIssuance(api, issuanceId)).credential as { id: string; shareUrl: string; verifyUrl: string }
  assert.ok(pointer, 'the credential exists after the worker drained')
  return { issuanceId, pointer }
}

/** The value of the first attribute `name` in `html` on an element matching `tagPattern`, unescaped. */
function attribute(html: string, tagPattern: RegExp, name: string): string {
  const tag = html.match(tagPattern)?.[0]
  assert.ok(tag, `an element matching ${tagPattern}`)
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
  assert.ok(value !== undefined, `${name}="..." on ${tag.slice(0, 120)}`)
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

function assertSecurityHeaders(page: Page): void {
  assert.equal(page.headers.get('content-security-policy'), CSP)
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff')
  assert.equal(page.headers.get('referrer-policy'), 'no-referrer')
}

function assertHtmlPage(page: Page, status: number): void {
  assert.equal(page.status, status, page.text.slice(0, 300))
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8')
  assert.equal(page.headers.get('cache-control'), 'no-store')
  assertSecurityHeaders(page)
  assert.match(page.text, /^<!doctype html>\n<html lang="ko">/)
  // No inline code, ever: at most the share button's script file, which the CSP's `script-src 'self'` lets run.
  const scripts = page.text.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []
  assert.equal(page.text.match(/<script/gi)?.length ?? 0, scripts.length, 'every script element is closed where it opens')
  assert.deepEqual(scripts, status === 200 ? ['<script src="/share.js" defer></script>'] : [], 'only /share.js, only on the page itself')
}

describe('the share page of a valid credential', () => {
  it("says when it was checked by the issuer's clock, not the machine's", async () => {
    const { pointer } = await issued()
    clock.advance(3 * DAY + 61_000)
    const page = await get(pointer.shareUrl)
    assertHtmlPage(page, 200)
    // The test clock also ticks on each read, so the check is to the minute, as the page shows it.
    assert.match(page.text, /Checked at<\/span> <time datetime="2030-01-04T12:01:[0-9.]+Z">2030-01-04 12:01 UTC<\/time>/)
  })

  it('is HTML with the headers of a live page that runs only its own script file', async () => {
    const { pointer } = await issued()
    assert.equal(pointer.shareUrl, `${SHARE_ORIGIN}/credentials/${pointer.id}`)
    const page = await get(pointer.shareUrl)
    assertHtmlPage(page, 200)
    assert.match(page.text, /<meta name="viewport" content="width=device-width, initial-scale=1">/)
    assert.match(page.text, /<meta charset="utf-8">/)
  })

  it('shows the verdict, achievement, English name, description, criteria, tags, issuer, recipient and dates', async () => {
    const { pointer } = await issued()
    const { text } = await get(pointer.shareUrl)
    assert.match(text, /class="verdict verdict--valid"/)
    assert.ok(text.includes('유효한 자격증명 <span lang="en">Valid credential</span>'))
    assert.ok(text.includes('<h1>체스 입문</h1>'))
    assert.ok(text.includes('<p class="name-en" lang="en">Chess basics</p>'))
    assert.ok(text.includes('<p class="description">기본 규칙과\n오프닝 원리를 배웠습니다.</p>'), 'the engraved description, line breaks kept')
    assert.ok(
      text.includes('<ol class="criteria"><li>입문 과정 수료</li><li>Score 80 or more (https://chess.example/exam?a=1&amp;b=2)</li></ol>'),
      'the narrative as a numbered list, one item per requirement',
    )
    assert.ok(text.includes('<ul class="tags"><li>전략</li><li>tactics</li></ul>'))
    assert.ok(text.includes('<dd>Chess Club</dd>'), 'the issuer, without a verified mark')
    assert.ok(text.includes('<dd>Kim Minsu</dd>'))
    assert.ok(text.includes(`<time datetime="${new Date(TEST_EPOCH).toISOString().replace('.000', '')}">2030-01-01</time>`), 'the issue date')
    assert.doesNotMatch(text, /만료일/, 'no expiry when the credential has none')
    assert.ok(!text.includes(RECIPIENT_EMAIL) && !text.includes('@chess.example'), 'no e-mail address anywhere')
  })

  it('marks the issuer verified when the club is', async () => {
    await api.issuer.clubs.setVerified('chess', true)
    const { pointer } = await issued()
    const { text } = await get(pointer.shareUrl)
    assert.match(text, /<dd>Chess Club<span class="verified"[^>]*>✓ 인증됨 <span lang="en">Verified<\/span><\/span><\/dd>/)
  })

  it('escapes every value taken from the template and the recipient, in text and in attributes', async () => {
    const { pointer } = await issued(
      { name: HOSTILE_NAME, tag: ['<b>bold</b>', `"quoted" & 'single'`], description: '<iframe src="x"></iframe>' },
      { recipients: [{ externalUserId: 'm-1', name: HOSTILE_RECIPIENT, email: RECIPIENT_EMAIL }] },
    )
    const { text } = await get(pointer.shareUrl)
    const name = '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;체스&quot; &#39;opening&#39;'
    assert.ok(text.includes(`<h1>${name}</h1>`))
    assert.ok(text.includes(`<title>${name} · Chess Club</title>`))
    assert.ok(text.includes(`<meta property="og:title" content="${name} · Kim &lt;img src=x onerror=alert(2)&gt; &quot;Minsu&quot;">`))
    assert.ok(text.includes('<dd>Kim &lt;img src=x onerror=alert(2)&gt; &quot;Minsu&quot;</dd>'))
    assert.ok(text.includes('<li>&lt;b&gt;bold&lt;/b&gt;</li><li>&quot;quoted&quot; &amp; &#39;single&#39;</li>'))
    assert.ok(text.includes('<p class="description">&lt;iframe src=&quot;x&quot;&gt;&lt;/iframe&gt;</p>'))
    for (const raw of ['<script>', '<img src=x', '<iframe', '<b>bold']) assert.ok(!text.includes(raw), `${raw} never appears unescaped`)
  })

  it('carries Open Graph and Twitter card tags naming the share URL', async () => {
    const { pointer } = await issued()
    const { text } = await get(pointer.shareUrl)
    assert.ok(text.includes('<meta property="og:type" content="website">'))
    assert.ok(text.includes('<meta property="og:title" content="체스 입문 · Kim Minsu">'))
    assert.ok(text.includes(`<meta property="og:url" content="${pointer.shareUrl}">`))
    assert.equal(
      attribute(text, /<meta property="og:description"[^>]*>/, 'content'),
      'Chess Club 발급 디지털 자격증명 (Open Badges 3.0). 기본 규칙과 오프닝 원리를 배웠습니다.',
    )
    assert.ok(text.includes('<meta name="twitter:card" content="summary">'))
    assert.ok(text.includes('<meta name="twitter:title" content="체스 입문 · Kim Minsu">'))
  })

  it('offers the downloads, the verify URL in a readonly input and as a link', async () => {
    const { pointer } = await issued()
    const { text } = await get(pointer.shareUrl)
    assert.equal(attribute(text, /<a [^>]*credential\.jwt[^>]*>/, 'href'), `/credentials/${pointer.id}/credential.jwt`)
    assert.equal(attribute(text, /<a [^>]*credential\.json[^>]*>/, 'href'), `/credentials/${pointer.id}/credential.json`)
    assert.match(text, /credential\.json" download>JSON-LD 내려받기 <span lang="en">Download JSON-LD<\/span>/)
    assert.equal(attribute(text, /<input [^>]*readonly[^>]*>/, 'value'), pointer.verifyUrl)
    assert.equal(attribute(text, /<a href="http:\/\/localhost:8787\/open-badges\/v3\/achievements\/[^>]*>/, 'href'), pointer.verifyUrl)
  })

  it('links LinkedIn add-to-profile with the certification name, club, issue month, share URL and id', async () => {
    const { pointer } = await issued({ name: 'Chess & Go: 입문' }, { expiresAt: new Date(TEST_EPOCH + 400 * DAY).toISOString() })
    const { text } = await get(pointer.shareUrl)
    const href = attribute(text, /<a [^>]*linkedin\.com[^>]*>/, 'href')
    const url = new URL(href)
    assert.equal(`${url.origin}${url.pathname}`, 'https://www.linkedin.com/profile/add')
    assert.deepStrictEqual(Object.fromEntries(url.searchParams), {
      startTask: 'CERTIFICATION_NAME',
      name: 'Chess & Go: 입문',
      organizationName: 'Chess Club',
      issueYear: '2030',
      issueMonth: '1',
      expirationYear: '2031',
      expirationMonth: '2',
      certUrl: pointer.shareUrl,
      certId: pointer.id,
    })
    assert.ok(href.includes('name=Chess%20%26%20Go%3A%20%EC%9E%85%EB%AC%B8'), 'values are percent-encoded')
  })

  it('embeds a QR code of the page as an SVG data: image', async () => {
    const { pointer } = await issued()
    const { text } = await get(pointer.shareUrl)
    const src = attribute(text, /<figure class="qr">\s*<img [^>]*>/, 'src')
    const prefix = 'data:image/svg+xml;base64,'
    assert.ok(src.startsWith(prefix), src.slice(0, 40))
    const svg = Buffer.from(src.slice(prefix.length), 'base64').toString('utf8')
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1"/)
    assert.match(svg, /<path [^>]*d="M/)
    assert.doesNotMatch(svg, /<script|href=/i)
  })

  it('answers HEAD with the GET status and headers and no body', async () => {
    const { pointer } = await issued()
    const response = await api.issuer.fetch(new Request(pointer.shareUrl, { method: 'HEAD' }))
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-security-policy'), CSP)
    assert.equal(await response.text(), '')
  })

  it('routes the host case-insensitively', async () => {
    const { pointer } = await issued()
    const page = await get(`http://CHESS.LocalHost:8787/credentials/${pointer.id}`)
    assertHtmlPage(page, 200)
    assert.ok(page.text.includes('<h1>체스 입문</h1>'))
  })
})

describe('the live verdict on the share page', () => {
  it('shows revoked after a revoke, and revoked wins over expired', async () => {
    const { issuanceId, pointer } = await issued({}, { expiresAt: new Date(TEST_EPOCH + DAY).toISOString() })
    assert.match((await get(pointer.shareUrl)).text, /<section class="verdict verdict--valid"/)
    assert.equal((await api.call('POST', `${issuancePath(issuanceId)}/revoke`)).status, 200)

    const revoked = await get(pointer.shareUrl)
    assertHtmlPage(revoked, 200)
    assert.match(revoked.text, /<section class="verdict verdict--revoked"/)
    assert.ok(revoked.text.includes('취소됨 <span lang="en">Revoked</span>'))
    assert.ok(!revoked.text.includes('유효한 자격증명'))
    assert.ok(!revoked.text.includes('linkedin.com'), 'a revoked credential is not offered for a LinkedIn profile')
    assert.ok(revoked.text.includes(`/credentials/${pointer.id}/credential.jwt`), 'its downloads stay')

    clock.advance(2 * DAY)
    const both = await get(pointer.shareUrl)
    assert.match(both.text, /<section class="verdict verdict--revoked"/)
    assert.doesNotMatch(both.text, /class="verdict verdict--expired"/)
  })

  it('shows expired once the injected clock passes validUntil, with the expiry date', async () => {
    const { pointer } = await issued({}, { expiresAt: new Date(TEST_EPOCH + DAY).toISOString() })
    const before = await get(pointer.shareUrl)
    assert.match(before.text, /<section class="verdict verdict--valid"/)
    assert.ok(before.text.includes('<dt>만료일<span lang="en">Expires</span></dt><dd><time datetime="2030-01-02T12:00:00Z">2030-01-02</time></dd>'))

    clock.advance(DAY)
    const after = await get(pointer.shareUrl)
    assertHtmlPage(after, 200)
    assert.match(after.text, /<section class="verdict verdict--expired"/)
    assert.ok(after.text.includes('만료됨 <span lang="en">Expired</span>'))
    assert.ok(after.text.includes('This credential expired on 2030-01-02.'))
    assert.ok(after.text.includes('linkedin.com/profile/add'), 'LinkedIn takes expired certifications, with their expiry')
  })

  it('shows "signature invalid" when the stored JWT no longer verifies', async () => {
    const verification = await openVerificationApi({ clock: createTestClock() })
    try {
      const template = await verification.call('POST', '/v2/clubs/chess/achievements', { name: '체스 입문', description: '규칙' })
      const batch = await verification.call('POST', '/v2/clubs/chess/issuances', {
        achievementFormId: template.body.data.id,
        mode: 'none',
        recipients: [{ externalUserId: 'm-1', name: 'Kim Minsu', email: RECIPIENT_EMAIL }],
      })
      const issuanceId = batch.body.results[0].resourceId
      await verification.issuer.worker.drain()
      const pointer = (await verification.call('GET', `/v2/clubs/chess/issuances/${issuanceId}`)).body.data.credential
      const jwt: string = (await verification.get(pointer.jwtUrl)).text
      const [header, payload, signature] = jwt.split('.') as [string, string, string]
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
      claims.vc.credentialSubject.achievement.name = 'Grandmaster norm'
      const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
      assert.equal(verification.sql('UPDATE credentials SET jwt = ? WHERE issuance_id = ?', forged, issuanceId).changes, 1)

      const page = await verification.get(pointer.shareUrl)
      assert.equal(page.status, 200)
      assert.match(page.text, /<section class="verdict verdict--invalid"/)
      assert.ok(page.text.includes('서명 검증 실패 <span lang="en">Signature invalid</span>'))
      assert.ok(!page.text.includes('유효한 자격증명'))
    } finally {
      await verification.close()
    }
  })
})

describe('downloads on the share host', () => {
  it('credential.jwt is the stored JWT as a text/plain attachment', async () => {
    const { issuanceId, pointer } = await issued()
    const download = await get(`${pointer.shareUrl}/credential.jwt`)
    assert.equal(download.status, 200)
    assert.equal(download.headers.get('content-type'), 'text/plain; charset=utf-8')
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="credential-${pointer.id}.jwt"`)
    assertSecurityHeaders(download)
    assert.equal(download.text, (await readCredential(api, issuanceId)).jwt)
  })

  it('credential.json is the JSON-LD form, the JWT payload`s vc with its Data Integrity proof, as an application/ld+json attachment', async () => {
    const { issuanceId, pointer } = await issued()
    const download = await get(`${pointer.shareUrl}/credential.json`)
    assert.equal(download.status, 200)
    assert.equal(download.headers.get('content-type'), 'application/ld+json')
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="credential-${pointer.id}.json"`)
    assertSecurityHeaders(download)
    const vc = decodeJwt<{ vc: Json }>((await readCredential(api, issuanceId)).jwt).vc
    const { proof, ...credential } = JSON.parse(download.text)
    assert.deepStrictEqual(credential, vc)
    assert.equal(vc.id, `urn:uuid:${pointer.id}`)
    const stored = (await api.storage.credentials.findById(pointer.id))!.proof
    assert.ok(stored.state === 'made', 'the proof is made')
    assert.deepStrictEqual(proof, [JSON.parse(stored.json)], 'the stored proof')
    const served = await get(`http://localhost:8787/open-badges/v3/credentials/${pointer.id}`, { headers: { accept: 'application/ld+json' } })
    assert.deepStrictEqual(JSON.parse(download.text), JSON.parse(served.text), 'the form the credential address serves (verified there)')
  })

  it('while the proof is being made, the page says the JSON-LD file is being prepared and its download is a 409 page to retry', async () => {
    const { issuanceId, pointer } = await issued()
    setStoredProof(api.dbFile, pointer.id, null)
    const { text } = await get(pointer.shareUrl)
    assert.doesNotMatch(text, /href="[^"]*credential\.json"/, 'no link to a form without its proof')
    assert.match(text, /JSON-LD 준비 중/)
    assert.match(text, /JSON-LD being prepared/)
    assert.match(text, /href="[^"]*credential\.jwt"/, 'the JWT is offered')
    const download = await get(`${pointer.shareUrl}/credential.json`)
    assertHtmlPage(download, 409)
    assert.equal(download.headers.get('retry-after'), '5')
    assert.ok(download.text.includes('<h1>JSON-LD 파일을 준비하고 있습니다</h1>'))
    assert.ok(!download.text.includes('"@context"'), 'no credential without its proof')
    assert.equal((await get(`${pointer.shareUrl}/credential.jwt`)).text, (await readCredential(api, issuanceId)).jwt)
  })

  it('a credential signed before proofs existed offers its JWT only; its JSON-LD download is a 404 page saying so', async () => {
    const { pointer } = await issued()
    setStoredProof(api.dbFile, pointer.id, '')
    const { text } = await get(pointer.shareUrl)
    assert.doesNotMatch(text, /credential\.json/)
    assert.doesNotMatch(text, /JSON-LD/)
    assert.match(text, /href="[^"]*credential\.jwt"/)
    const download = await get(`${pointer.shareUrl}/credential.json`)
    assertHtmlPage(download, 404)
    assert.ok(download.text.includes('<h1>이 자격증명에는 JSON-LD 파일이 없습니다</h1>'))
  })

  it('answers a 404 page for a download of another club`s credential or an unknown one', async () => {
    const { pointer } = await issued()
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    for (const url of [
      `http://go.localhost:8787/credentials/${pointer.id}/credential.jwt`,
      `http://go.localhost:8787/credentials/${pointer.id}/credential.json`,
      `${SHARE_ORIGIN}/credentials/${crypto.randomUUID()}/credential.jwt`,
    ]) {
      const page = await get(url)
      assertHtmlPage(page, 404)
      assert.ok(page.text.includes('<h1>찾을 수 없는 자격증명입니다</h1>'), url)
      assert.ok(!page.text.includes('eyJ'), 'no JWT in the answer')
    }
  })
})

describe('404 and 405 on the share host are HTML pages in the same style', () => {
  it('an unknown credential id, a malformed id, and another club`s credential are 404', async () => {
    const { pointer } = await issued()
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    for (const url of [
      `${SHARE_ORIGIN}/credentials/${crypto.randomUUID()}`,
      `${SHARE_ORIGIN}/credentials/not-a-uuid`,
      `${SHARE_ORIGIN}/credentials/${pointer.id.toUpperCase()}x`,
      `http://go.localhost:8787/credentials/${pointer.id}`,
      `http://nosuchclub.localhost:8787/credentials/${pointer.id}`,
    ]) {
      const page = await get(url)
      assertHtmlPage(page, 404)
      assert.ok(page.text.includes('<h1>찾을 수 없는 자격증명입니다</h1>'), url)
      assert.ok(page.text.includes('<style>'), 'the same style sheet')
      assert.ok(!page.text.includes('Kim Minsu') && !page.text.includes('체스 입문'), 'nothing of the credential leaks')
    }
  })

  it('any other path on the share host is a 404 page, also API paths', async () => {
    for (const path of [
      '/',
      '/credentials',
      '/credentials/',
      '/v2/clubs/chess/',
      '/oauth/token',
      '/open-badges/v3/issuers/chess/did.json',
      '/credentials/x/y/z',
    ]) {
      const page = await get(`${SHARE_ORIGIN}${path}`)
      assertHtmlPage(page, 404)
      assert.ok(page.text.includes('<h1>찾을 수 없는 페이지입니다</h1>') || page.text.includes('<h1>찾을 수 없는 자격증명입니다</h1>'), path)
    }
  })

  it('another method on a share path is 405 with Allow: GET, HEAD', async () => {
    const { pointer } = await issued()
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const page = await get(pointer.shareUrl, { method })
      assertHtmlPage(page, 405)
      assert.equal(page.headers.get('allow'), 'GET, HEAD')
    }
  })

  it('hosts that are not `{club}.{share_url_host}` keep the API: problem+json, never the share page', async () => {
    const { pointer } = await issued()
    for (const origin of ['http://localhost:8787', 'http://a.chess.localhost:8787', 'http://chess.localhost:9999', 'http://-bad.localhost:8787']) {
      const response = await get(`${origin}/credentials/${pointer.id}`)
      assert.equal(response.status, 404, origin)
      assert.equal(response.headers.get('content-type'), 'application/problem+json', origin)
    }
    assert.equal((await api.call('GET', '/v2/clubs/chess/')).status, 200, 'the API still answers on its host')
  })
})
