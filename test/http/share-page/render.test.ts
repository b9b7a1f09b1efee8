/**
 * The share page's parts without an issuer: what the renderer makes of views the API cannot produce
 * yet (co-issuers, a failed signature with every field hostile), and which hosts are share hosts
 * (docs/decisions/0001-addresses.md `{club}.{share_url_host}`).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { defaultUrls } from '../../../core/config.ts'
import { createShareHostMatcher } from '../../../adapters/http/routes/share.ts'
import { html, toHtml, trusted } from '../../../adapters/http/share-page/html.ts'
import { linkedInAddUrl } from '../../../adapters/http/share-page/linkedin.ts'
import { renderSharePage } from '../../../adapters/http/share-page/render.ts'
import type { ShareView } from '../../../core/verification/share-view.ts'

const HOSTILE = `<script>alert("x")</script>'&`
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;'
const ID = '0b6b3d47-3a51-4b1e-9d55-7f0c1e1a2b3c'

function aView(overrides: Partial<ShareView> = {}, achievement: Partial<ShareView['achievement']> = {}): ShareView {
  return {
    credentialId: ID,
    club: { domain: 'chess', name: 'Chess Club', issuerVerified: false },
    recipientName: 'Kim Minsu',
    issuedAt: '2030-01-01T12:00:00Z',
    validUntil: null,
    verdict: { isValid: true, status: 'valid' },
    checkedAt: Date.UTC(2030, 0, 2),
    jsonLd: 'ready',
    achievement: {
      name: '체스 입문',
      nameEn: null,
      description: '규칙을 배웠습니다.',
      narrative: '1. 수료',
      achievementType: 'CertificateOfCompletion',
      tags: [],
      partners: [],
      ...achievement,
    },
    urls: {
      share: `http://chess.localhost:8787/credentials/${ID}`,
      verify: 'http://localhost:8787/open-badges/v3/achievements/1/verify',
      jwt: `http://localhost:8787/open-badges/v3/credentials/${ID}`,
      walletOffer: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`http://localhost:8787/open-badges/v3/issuers/chess/credential-offers/${ID}`)}`,
      lcw: null,
      card: null,
    },
    ...overrides,
  }
}

const render = (view: ShareView) =>
  renderSharePage(view, { qr: 'data:image/svg+xml;base64,PHN2Zz4=', walletQr: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=', now: Date.UTC(2030, 0, 2) })

describe('renderSharePage', () => {
  it('lists co-issuers (not the representative club again) with their verified marks', () => {
    const page = render(
      aView(
        {},
        {
          partners: [
            { name: 'Chess Club', role: 'representative', isVerified: false },
            { name: 'Seoul Chess Federation', role: 'partner', isVerified: true },
            { name: 'Busan Go Society', role: 'partner', isVerified: false },
          ],
        },
      ),
    )
    assert.ok(page.includes('<dt>공동 발급<span lang="en">Co-issuers</span></dt>'))
    assert.match(
      page,
      /<li>Seoul Chess Federation<span class="verified"[^>]*>✓ 인증됨 <span lang="en">Verified<\/span><\/span><\/li><li>Busan Go Society<\/li>/,
    )
    assert.equal(page.match(/<li>Chess Club/g), null, 'the club is the issuer, not a co-issuer')
  })

  it('has no co-issuer row when there are none', () => {
    assert.ok(!render(aView()).includes('공동 발급'))
  })

  it('a failed signature shows "signature invalid", whatever the status', () => {
    for (const status of ['valid', 'expired', 'revoked'] as const) {
      const page = render(aView({ verdict: { isValid: false, status } }))
      assert.match(page, /<section class="verdict verdict--invalid"/, status)
      assert.ok(page.includes('서명 검증 실패 <span lang="en">Signature invalid</span>'), status)
      assert.ok(!page.includes('linkedin.com'), 'a forged credential is not offered for a LinkedIn profile')
    }
  })

  it('escapes every string of the view, in text and in attributes, and writes no script of its own', () => {
    const page = render(
      aView(
        {
          club: { domain: 'chess', name: HOSTILE, issuerVerified: true },
          recipientName: HOSTILE,
          validUntil: '2031-01-01T00:00:00Z',
          verdict: { isValid: true, status: 'revoked' },
          urls: {
            share: `http://chess.localhost:8787/"><script>`,
            verify: `http://localhost:8787/"><script>`,
            jwt: 'x',
            walletOffer: `openid-credential-offer://?"><script>`,
            lcw: null,
            card: `http://chess.localhost:8787/"><script>/card.png`,
          },
        },
        {
          name: HOSTILE,
          nameEn: HOSTILE,
          description: HOSTILE,
          narrative: `1. ${HOSTILE}\n2. ${HOSTILE}`,
          tags: [HOSTILE],
          partners: [{ name: HOSTILE, role: 'partner', isVerified: true }],
        },
      ),
    )
    assert.deepEqual(page.match(/<script[^>]*>/gi), ['<script src="/share.js" defer>'], "no script element but the share button's file")
    assert.ok(!page.includes(`</script>'&`) && !page.includes(`"x"`), 'no raw quote or ampersand of the values: no attribute is broken out of')
    assert.ok(page.includes(`<h1>${ESCAPED}</h1>`))
    assert.ok(page.includes(`<p class="name-en" lang="en">${ESCAPED}</p>`))
    assert.ok(page.includes(`<ol class="criteria"><li>${ESCAPED}</li><li>${ESCAPED}</li></ol>`))
    assert.ok(page.includes(`${ESCAPED}이(가) 이 자격증명을 취소했습니다.`), 'the club name inside the verdict, escaped')
    assert.ok(page.includes(`value="http://localhost:8787/&quot;&gt;&lt;script&gt;"`))
  })

  it('offers "add to wallet" (link and QR code of the offer) for valid and expired credentials, never revoked or forged ones', () => {
    const offer = aView().urls.walletOffer
    for (const status of ['valid', 'expired'] as const) {
      const page = render(aView({ verdict: { isValid: true, status } }))
      assert.ok(page.includes(`<a class="button button--wallet" href="${offer.replace(/&/g, '&amp;')}">`), status)
      assert.ok(page.includes('<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="'), `${status}: the offer's QR code`)
    }
    for (const verdict of [
      { isValid: true, status: 'revoked' },
      { isValid: false, status: 'valid' },
    ] as const) {
      const page = render(aView({ verdict }))
      assert.ok(!page.includes('openid-credential-offer:'), JSON.stringify(verdict))
      assert.ok(!page.includes('PHN2Zz48L3N2Zz4='), `${JSON.stringify(verdict)}: no offer QR code`)
    }
    const hostile = render(aView({ urls: { ...aView().urls, walletOffer: `openid-credential-offer://?"><script>alert(1)</script>` } }))
    assert.ok(!/<script>/i.test(hostile), 'no script element from the offer link')
    assert.ok(hostile.includes('href="openid-credential-offer://?&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'))
  })

  it('offers the JSON-LD download once its proof is made, says it is being prepared before, and offers none for a credential from before proofs', () => {
    const link = `<a class="button" href="/credentials/${ID}/credential.json" download>JSON-LD 내려받기 <span lang="en">Download JSON-LD</span></a>`
    const jwtLink = `href="/credentials/${ID}/credential.jwt"`
    const ready = render(aView({ jsonLd: 'ready' }))
    assert.ok(ready.includes(link))
    assert.ok(!ready.includes('class="button button--waiting"'))
    const pending = render(aView({ jsonLd: 'pending' }))
    assert.ok(!pending.includes('credential.json'), 'no link to a form without its proof')
    assert.ok(pending.includes('<span class="button button--waiting" role="status">JSON-LD 준비 중'))
    const none = render(aView({ jsonLd: 'none' }))
    assert.ok(!none.includes('credential.json'))
    assert.ok(!none.includes('JSON-LD 준비 중'))
    for (const page of [ready, pending, none]) assert.ok(page.includes(jwtLink), 'the JWT is always offered')
  })

  it('renders the narrative as one list item per line, without the engraved numbers', () => {
    const page = render(aView({}, { narrative: '1. 첫째\n2. 둘째 (https://x.example)\n10. 열째' }))
    assert.ok(page.includes('<ol class="criteria"><li>첫째</li><li>둘째 (https://x.example)</li><li>열째</li></ol>'))
    assert.ok(!render(aView({}, { narrative: '' })).includes('취득 기준'), 'no criteria section without requirements')
  })
})

describe('linkedInAddUrl', () => {
  it('carries what LinkedIn reads: name, organisation, issue month, the credential id and the share URL; no expiry when there is none', () => {
    const view = aView({ issuedAt: '2030-03-04T05:06:07Z', validUntil: null })
    const url = new URL(linkedInAddUrl(view))
    assert.equal(url.origin + url.pathname, 'https://www.linkedin.com/profile/add')
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      startTask: 'CERTIFICATION_NAME',
      name: view.achievement.name,
      organizationName: view.club.name,
      issueYear: '2030',
      issueMonth: '3',
      certUrl: view.urls.share,
      certId: view.credentialId,
    })
  })

  it('adds the expiration month when the credential expires', () => {
    const url = new URL(linkedInAddUrl(aView({ issuedAt: '2030-12-31T23:59:59Z', validUntil: '2032-06-15T00:00:00Z' })))
    assert.equal(url.searchParams.get('issueYear'), '2030')
    assert.equal(url.searchParams.get('issueMonth'), '12')
    assert.equal(url.searchParams.get('expirationYear'), '2032')
    assert.equal(url.searchParams.get('expirationMonth'), '6')
  })
})

describe('html', () => {
  it('escapes interpolations, flattens arrays, drops null/undefined/false and keeps markup as is', () => {
    const inner = html`<b>${'<i>'}</b>`
    assert.equal(toHtml(html`<p title="${`"'`}">${['a&', inner, null, undefined, false, 0]}</p>`), `<p title="&quot;&#39;">a&amp;<b>&lt;i&gt;</b>0</p>`)
    assert.equal(toHtml(html`${trusted('<br>')}`), '<br>')
  })
})

describe('createShareHostMatcher', () => {
  const matchDefault = createShareHostMatcher(defaultUrls(8787))

  it('takes the club from `{club}.{share_url_host}`, case-insensitively', () => {
    assert.equal(matchDefault('http://chess.localhost:8787/credentials/x'), 'chess')
    assert.equal(matchDefault('http://Chess-Club.LOCALHOST:8787/'), 'chess-club')
    assert.equal(matchDefault('http://1club.localhost:8787/'), '1club')
  })

  it('leaves every other host to the API', () => {
    for (const url of [
      'http://localhost:8787/credentials/x',
      'http://chess.localhost:8788/credentials/x',
      'http://chess.localhost/credentials/x',
      'http://a.chess.localhost:8787/',
      'http://-chess.localhost:8787/',
      'http://chess-.localhost:8787/',
      'http://chesslocalhost:8787/',
      'http://127.0.0.1:8787/',
    ]) {
      assert.equal(matchDefault(url), null, url)
    }
  })

  it('matches a share host without a port on the default port of the scheme', () => {
    const match = createShareHostMatcher({ ...defaultUrls(8787), public: 'https://verify.example.org', shareHost: 'badges.example.org' })
    assert.equal(match('https://chess.badges.example.org/credentials/x'), 'chess')
    assert.equal(match('http://chess.badges.example.org/credentials/x'), 'chess')
    assert.equal(match('https://chess.badges.example.org:8443/credentials/x'), null)
  })

  it('never takes a host that another surface is configured on', () => {
    const match = createShareHostMatcher({ ...defaultUrls(8787), base: 'http://api.localhost:8787' })
    assert.equal(match('http://api.localhost:8787/v2/clubs/api/'), null)
    assert.equal(match('http://chess.localhost:8787/'), 'chess')
  })
})
