import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { createPdfRenderer } from '../../adapters/pdf/index.ts'
import { defaultBadgePng } from '../../core/designs/default-badge.ts'
import { openApi, type Api } from '../support/api-harness.ts'
import { FILES_CLUB, createDesign, filePath, issueOne, pdfText, poppler, skipWithoutPoppler } from '../support/file-api.ts'

/**
 * The certificate PDF (docs/api.md §4.6) read back by poppler, as a person's viewer would: the
 * Hangul text is there as text (not boxes), in an embedded subset font, laid out by the certificate
 * design, from the credential as issued. Page images land in test/artifacts/ (git-ignored, kept by CI).
 */

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url))
// CI installs zbar-tools (.ci/run); a developer machine without it skips the QR decoding, saying why.
const skipWithoutZbar = !existsSync('/usr/bin/zbarimg') && !process.env.CI ? '/usr/bin/zbarimg is not installed (apt-get install zbar-tools)' : false
const ISSUANCES = `/v2/clubs/${FILES_CLUB}/issuances`

describe('the certificate PDF', { skip: skipWithoutPoppler }, () => {
  let api: Api
  let issuanceId: number
  let templateId: number
  let pdf: Uint8Array
  before(async () => {
    api = await openApi({ certificates: createPdfRenderer() })
    ;({ issuanceId, templateId } = await issueOne(api))
    await api.issuer.worker.drain()
    const response = await api.get(filePath(issuanceId, 'pdf'))
    assert.equal(response.status, 200, response.text.slice(0, 300))
    pdf = response.bytes
  })
  after(() => api.close())

  it('carries the recipient 김민준 and the Hangul template name as text, and page 1 is kept as test/artifacts/certificate-page1.png', () => {
    const text = pdfText(pdf)
    assert.match(text, /김민준/)
    assert.match(text, /체스 입문/)
    savePage(pdf, 'certificate-page1.png')
  })

  it('prints the engraved description, criteria, issue date, issuer, certificate number and the share page of the QR code', async () => {
    const text = pdfText(pdf)
    const detail = (await api.call('GET', `${ISSUANCES}/${issuanceId}`)).body.data
    const issued = new Date(Date.parse(detail.credential.issuedAt) + 9 * 3600_000)
    assert.match(text, /Chess basics/, 'nameEn')
    assert.match(text, /체스의 기본 규칙과 전술을 익혔습니다\./, 'the engraved description')
    assert.match(text, /1\. 입문 과정 8주 수료/, 'criteria.narrative')
    assert.match(text, /Chess Club/, 'the issuer')
    assert.ok(text.includes(`${issued.getUTCFullYear()}년 ${issued.getUTCMonth() + 1}월 ${issued.getUTCDate()}일`), 'the issue date in Korean (KST)')
    // The number counts issuances in issue order (the sequence), never the random id: the store's first.
    assert.ok(text.includes('CC-CHESS-000001'), 'the certificate number')
    assert.ok(!text.includes(String(issuanceId)), 'the random issuance id is not printed')
    assert.ok(text.includes(detail.credential.shareUrl), 'the share page the QR code points to')
    assert.match(text, /수료증/, 'the heading of a completion')
  })

  it('has a QR code that a reader decodes to the share page (zbarimg on page 1 at 200 dpi)', { skip: skipWithoutZbar }, async () => {
    const detail = (await api.call('GET', `${ISSUANCES}/${issuanceId}`)).body.data
    const dir = mkdtempSync(join(tmpdir(), 'clubcred-qr-'))
    try {
      writeFileSync(join(dir, 'certificate.pdf'), pdf)
      execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '200', '-singlefile', join(dir, 'certificate.pdf'), join(dir, 'page')])
      const decoded = execFileSync('/usr/bin/zbarimg', ['--quiet', '--raw', join(dir, 'page.png')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      assert.equal(decoded.trim(), detail.credential.shareUrl)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('embeds its fonts as subsets (pdffonts: emb yes, sub yes, a six-letter subset tag)', () => {
    const rows = poppler('pdffonts', pdf).trim().split('\n').slice(2)
    assert.ok(rows.length >= 1, 'at least one font')
    for (const row of rows) {
      const columns = row.trim().split(/\s+/)
      const [name] = columns
      const [emb, sub, uni] = columns.slice(-5, -2)
      assert.match(name!, /^[A-Z]{6}\+Pretendard-(Regular|Bold)$/, row)
      assert.deepEqual([emb, sub, uni], ['yes', 'yes', 'yes'], `embedded, subset, with a ToUnicode map: ${row}`)
    }
    assert.ok(pdf.length < 200_000, `a subset keeps the file small (${pdf.length} bytes; the font alone is 2.7 MB)`)
  })

  it('is an A4 landscape page by default, with document metadata', () => {
    const info = poppler('pdfinfo', pdf)
    assert.match(info, /Pages:\s+1\n/)
    assert.match(info, /Page size:\s+841\.89 x 595\.28 pts \(A4\)/)
    assert.match(info, /Title:\s+체스 입문 - 김민준/)
    assert.match(info, /Author:\s+Chess Club/)
  })

  it('is built from the credential as issued: a later template edit changes the next certificate, not this one', async () => {
    const patched = await api.call('PATCH', `/v2/clubs/${FILES_CLUB}/achievements/${templateId}`, { name: '체스 고급', description: '새 설명입니다.' })
    assert.equal(patched.status, 200, JSON.stringify(patched.body))
    const again = await api.get(filePath(issuanceId, 'pdf'))
    assert.deepEqual(again.bytes, pdf, 'the same bytes as before the edit')
    const text = pdfText(again.bytes)
    assert.match(text, /체스 입문/)
    assert.equal(text.includes('체스 고급'), false)

    const next = await api.call('POST', ISSUANCES, {
      achievementFormId: templateId,
      mode: 'none',
      recipients: [{ externalUserId: 'lee', name: '이서연', email: 'seoyeon@chess.example' }],
    })
    await api.issuer.worker.drain()
    const nextText = pdfText((await api.get(filePath(next.body.results[0].resourceId, 'pdf'))).bytes)
    assert.match(nextText, /체스 고급/)
    assert.match(nextText, /새 설명입니다\./)
    assert.match(nextText, /이서연/)
  })

  it('lists the partner organisations of the credential as co-issuers', async () => {
    const { templateId: partnered } = await issueOne(api, {
      template: { name: '연합 토너먼트' },
      recipient: { externalUserId: 'p0', email: 'p0@chess.example' },
    })
    await api.issuer.achievements.coIssuers.add(FILES_CLUB, partnered, { name: '대한체스연맹', url: 'https://kchess.example', isVerified: true })
    const issued = await api.call('POST', ISSUANCES, {
      achievementFormId: partnered,
      mode: 'none',
      recipients: [{ externalUserId: 'p1', name: '박지호', email: 'p1@chess.example' }],
    })
    await api.issuer.worker.drain()
    const text = pdfText((await api.get(filePath(issued.body.results[0].resourceId, 'pdf'))).bytes)
    assert.match(text, /Co-issued with: 대한체스연맹/)
  })

  it('follows the certificate design: portrait, a PNG logo, and hidden description, criteria and QR code', async () => {
    const logo = await defaultBadgePng({ color: '#7a1f3d' })
    const designId = await createDesign(api, {
      kind: 'certificate',
      name: '세로형',
      layout: {
        orientation: 'portrait',
        primaryColor: '#7a1f3d',
        logo: { mediaType: 'image/png', data: Buffer.from(logo).toString('base64') },
        show: { description: false, criteria: false, qrCode: false },
      },
    })
    const { issuanceId: designed } = await issueOne(api, {
      template: { name: '체스 심판', type: 'license', achievementCertificateDesignId: designId },
      recipient: { externalUserId: 'ref', email: 'ref@chess.example' },
    })
    await api.issuer.worker.drain()
    const bytes = (await api.get(filePath(designed, 'pdf'))).bytes
    assert.match(poppler('pdfinfo', bytes), /Page size:\s+595\.28 x 841\.89 pts \(A4\)/)
    const images = poppler('pdfimages', bytes, ['-list'])
      .trim()
      .split('\n')
      .slice(2)
      .map((row) => row.trim().split(/\s+/))
    // page num type width height ...: the logo, and its alpha channel as a soft mask.
    assert.deepEqual(
      images.map(([, , type, width, height]) => [type, width, height]),
      [
        ['image', '256', '256'],
        ['smask', '256', '256'],
      ],
      'the logo is the one image, at its own size',
    )
    const text = pdfText(bytes)
    assert.match(text, /자격증/, 'the heading of a license')
    assert.match(text, /김민준/)
    assert.equal(text.includes('체스의 기본 규칙과 전술을 익혔습니다'), false, 'description hidden')
    assert.equal(text.includes('입문 과정 8주 수료'), false, 'criteria hidden')
    assert.equal(text.includes('/credentials/'), false, 'no QR code, no share address')
    savePage(bytes, 'certificate-portrait-page1.png')
  })

  it('marks a revoked certificate with a diagonal REVOKED stamp (test/artifacts/certificate-revoked-page1.png)', async () => {
    const { issuanceId: revoked } = await issueOne(api, {
      template: { name: '체스 대회 참가' },
      recipient: { externalUserId: 'gone', email: 'gone@chess.example' },
    })
    await api.issuer.worker.drain()
    await api.call('POST', `${ISSUANCES}/${revoked}/revoke`)
    const bytes = (await api.get(filePath(revoked, 'pdf'))).bytes
    assert.match(pdfText(bytes), /REVOKED · 취소됨/)
    savePage(bytes, 'certificate-revoked-page1.png')
  })
})

/** Page 1 as PNG at 60 dpi (pdftoppm), kept under test/artifacts/ for a person to look at. */
function savePage(pdf: Uint8Array, name: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-page-'))
  try {
    writeFileSync(join(dir, 'certificate.pdf'), pdf)
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', join(dir, 'certificate.pdf'), join(dir, 'page')])
    mkdirSync(ARTIFACTS, { recursive: true })
    renameOrCopy(join(dir, 'page.png'), join(ARTIFACTS, name))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const png = readFileSync(join(ARTIFACTS, name))
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${name} is a PNG`)
  assert.ok(png.readUInt32BE(16) >= 490 && png.readUInt32BE(20) >= 490, `${name} is a page at 60 dpi`)
}

function renameOrCopy(from: string, to: string): void {
  try {
    renameSync(from, to)
  } catch {
    writeFileSync(to, readFileSync(from))
  }
}
