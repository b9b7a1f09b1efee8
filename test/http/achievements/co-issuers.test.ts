import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { decodeJwt } from 'jose'
import { ProblemError } from '../../../core/errors.ts'
import { createPdfRenderer } from '../../../adapters/pdf/index.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { FILES_CLUB, filePath, issueOne, pdfText, skipWithoutPoppler } from '../../support/file-api.ts'
import { assertValidOb3 } from '../../support/ob3-schema.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import type { Json } from '../../support/json.ts'

/**
 * Co-issuers added through the library API (what the admin CLI calls; docs/api.md §2.3 `coIssuers`,
 * docs/decisions/0012-co-issuers.md) seen everywhere they show: the template read on v2 (`coIssuers`) and v1 (`institutions`),
 * the credentials issued afterwards (`x-partnerOrganizations`), the certificate PDF and the share page.
 * Credentials issued before keep the snapshot they were engraved from.
 */

const PARTNER = { name: '대한체스연맹', url: 'https://kchess.example/', isVerified: true }
const HOSTILE = { name: 'Go & Baduk <b>Club</b> "Busan"', url: 'https://go.example/busan?a=1&b=2' }

describe('co-issuers of a template', { skip: skipWithoutPoppler }, () => {
  let api: Api
  let templateId: number
  let before_: number
  let after_: number
  before(async () => {
    api = await openApi({ certificates: createPdfRenderer() })
    ;({ templateId, issuanceId: before_ } = await issueOne(api, {
      template: { name: '연합 토너먼트' },
      recipient: { externalUserId: 'early', email: 'early@chess.example' },
    }))
    await api.issuer.worker.drain()
    await api.issuer.achievements.coIssuers.add(FILES_CLUB, templateId, PARTNER)
    await api.issuer.achievements.coIssuers.add(FILES_CLUB, templateId, HOSTILE)
    const issued = await api.call('POST', `/v2/clubs/${FILES_CLUB}/issuances`, {
      achievementFormId: templateId,
      mode: 'none',
      recipients: [{ externalUserId: 'late', name: '박지호', email: 'late@chess.example' }],
    })
    after_ = issued.body.results[0].resourceId
    await api.issuer.worker.drain()
  })
  after(() => api.close())

  const vcOf = async (issuanceId: number) => {
    const jwt = (await api.call('GET', `/v2/clubs/${FILES_CLUB}/issuances/${issuanceId}/credential`)).body.data.jwt
    return decodeJwt<{ vc: Json }>(jwt).vc
  }

  it('the v2 template read lists the club as representative, then the partners in the order added', async () => {
    const { coIssuers } = (await api.call('GET', `/v2/clubs/${FILES_CLUB}/achievements/${templateId}`)).body.data
    assert.deepStrictEqual(
      coIssuers.map(({ name, url, role, isVerified }: Record<string, unknown>) => ({ name, url, role, isVerified })),
      [
        { name: 'Chess Club', url: null, role: 'representative', isVerified: false },
        { name: PARTNER.name, url: PARTNER.url, role: 'partner', isVerified: true },
        { name: HOSTILE.name, url: HOSTILE.url, role: 'partner', isVerified: false },
      ],
    )
    assert.deepStrictEqual(await api.issuer.achievements.coIssuers.list(FILES_CLUB, templateId), coIssuers, 'the library list is the read')
  })

  it('the v1 form read lists them as institutions', async () => {
    const form = (await api.call('GET', `/v1/forms/${templateId}`)).body
    assert.deepStrictEqual(form.institutions, [
      { name: 'Chess Club', role: 'representative', isVerified: false },
      { name: PARTNER.name, role: 'partner', isVerified: true },
      { name: HOSTILE.name, role: 'partner', isVerified: false },
    ])
  })

  it('a credential issued afterwards carries them in x-partnerOrganizations; one issued before keeps its snapshot', async () => {
    const late = await vcOf(after_)
    assertValidOb3(late)
    assert.deepStrictEqual(
      late.credentialSubject.achievement['x-partnerOrganizations'].map((p: { name: string; role: string }) => [p.name, p.role]),
      [
        ['Chess Club', 'representative'],
        [PARTNER.name, 'partner'],
        [HOSTILE.name, 'partner'],
      ],
    )
    const early = await vcOf(before_)
    assert.deepStrictEqual(
      early.credentialSubject.achievement['x-partnerOrganizations'].map((p: { role: string }) => p.role),
      ['representative'],
    )
    const earlyForm = (await api.call('GET', `/v2/clubs/${FILES_CLUB}/issuances/${before_}`)).body.data.form
    assert.equal(earlyForm.coIssuers.length, 1, 'the issuance form is the template as issued')
  })

  it('the certificate PDF of the later credential names the partners; the earlier one none', async () => {
    const late = pdfText((await api.get(filePath(after_, 'pdf'))).bytes)
    assert.ok(late.includes(`Co-issued with: ${PARTNER.name}, ${HOSTILE.name}`), late)
    const early = pdfText((await api.get(filePath(before_, 'pdf'))).bytes)
    assert.equal(early.includes('Co-issued'), false)
  })

  it('the share page of the later credential lists the partners, escaped, with the verified mark', async () => {
    const { shareUrl } = (await api.call('GET', `/v2/clubs/${FILES_CLUB}/issuances/${after_}`)).body.data.credential
    const response = await api.issuer.fetch(new Request(shareUrl))
    assert.equal(response.status, 200)
    const page = await response.text()
    assert.ok(page.includes('<dt>공동 발급<span lang="en">Co-issuers</span></dt>'))
    assert.match(page, /<li>대한체스연맹<span class="verified"[^>]*>✓ 인증됨 <span lang="en">Verified<\/span><\/span><\/li>/)
    assert.ok(page.includes('<li>Go &amp; Baduk &lt;b&gt;Club&lt;/b&gt; &quot;Busan&quot;</li>'), 'the name is escaped')
    assert.equal(page.includes('<b>Club</b>'), false)

    const { shareUrl: earlyUrl } = (await api.call('GET', `/v2/clubs/${FILES_CLUB}/issuances/${before_}`)).body.data.credential
    assert.equal((await (await api.issuer.fetch(new Request(earlyUrl))).text()).includes('공동 발급'), false)
  })

  it('refuses bad input with 422 naming the member, and a 21st partner, changing nothing', async () => {
    const { templateId: other } = await issueOne(api, { template: { name: '한도' }, recipient: { externalUserId: 'limit', email: 'limit@chess.example' } })
    const coIssuers = api.issuer.achievements.coIssuers
    const cases: [unknown, { message: string; path: string }[]][] = [
      [{ url: 'https://x.example' }, [{ message: 'required', path: 'name' }]],
      [{ name: 'X' }, [{ message: 'required', path: 'url' }]],
      [{ name: 'X', url: 'mailto:x@x.example' }, [{ message: 'invalid-url', path: 'url' }]],
      [{ name: 'X', url: 'https://x.example', isVerified: 'yes' }, [{ message: 'must-be-boolean', path: 'isVerified' }]],
      [{ name: 'X', url: 'https://x.example', role: 'representative' }, [{ message: 'unknown-field', path: 'role' }]],
      [{ name: 'x'.repeat(201), url: 'https://x.example' }, [{ message: 'too-long', path: 'name' }]],
      [{ name: 'X', url: `https://x.example/${'a'.repeat(2048)}` }, [{ message: 'too-long', path: 'url' }]],
    ]
    for (const [input, errors] of cases) {
      await assert.rejects(coIssuers.add(FILES_CLUB, other, input as never), (error: unknown) => {
        assert.ok(error instanceof ProblemError)
        assert.equal(error.code, 'validation-failed', JSON.stringify(input))
        assert.deepStrictEqual(error.errors, errors, JSON.stringify(input))
        return true
      })
    }
    for (let i = 0; i < 20; i++) await coIssuers.add(FILES_CLUB, other, { name: `Partner ${i}`, url: `https://p${i}.example/` })
    await assert.rejects(coIssuers.add(FILES_CLUB, other, { name: 'One too many', url: 'https://p20.example/' }), (error: unknown) => {
      assert.ok(error instanceof ProblemError)
      assert.deepStrictEqual(error.errors, [{ message: 'too-many-co-issuers', path: 'url' }])
      return true
    })
    // Updating one of the 20 in place is not one too many.
    await coIssuers.add(FILES_CLUB, other, { name: 'Renamed', url: 'https://p0.example' })
    const list = await coIssuers.list(FILES_CLUB, other)
    assert.equal(list.length, 21)
    assert.equal(list[1]?.name, 'Renamed')
    await assert.rejects(coIssuers.list('nope', other), { code: 'club-not-found' })
    await assert.rejects(coIssuers.remove(FILES_CLUB, 999_999, { url: 'https://p0.example' }), { code: 'achievement-not-found' })
  })

  it('concurrent adds lose nothing, and one url added at once by many is there once', async () => {
    const { templateId: busy } = await issueOne(api, { template: { name: '동시' }, recipient: { externalUserId: 'busy', email: 'busy@chess.example' } })
    const coIssuers = api.issuer.achievements.coIssuers
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => coIssuers.add(FILES_CLUB, busy, { name: `Distinct ${i}`, url: `https://d${i}.example/` })),
      ...Array.from({ length: 8 }, (_, i) => coIssuers.add(FILES_CLUB, busy, { name: `Same ${i}`, url: 'https://same.example/' })),
    ])
    const urls = (await coIssuers.list(FILES_CLUB, busy)).slice(1).map((partner) => partner.url)
    assert.equal(urls.length, 9)
    assert.deepStrictEqual(new Set(urls), new Set([...Array.from({ length: 8 }, (_, i) => `https://d${i}.example/`), 'https://same.example/']))
  })

  it('stays read-only on v2: coIssuers sent in a patch are ignored', async () => {
    const patched = await api.call('PATCH', `/v2/clubs/${FILES_CLUB}/achievements/${templateId}`, {
      coIssuers: [{ name: 'Forged', url: 'https://forged.example' }],
    })
    assert.equal(patched.status, 200, JSON.stringify(patched.body))
    assert.equal(patched.body.data.coIssuers.length, 3)
    assertProblem(await api.call('PATCH', `/v2/clubs/${FILES_CLUB}/achievements/${templateId}`, { coIssuer: [] }), 422, 'validation-failed')
  })
})
