import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { buildCertificateModel, certificateDate, certificateNumber, type CertificateModelInput } from '../../../core/files/certificate-model.ts'
import { DEFAULT_LAYOUT } from '../../../core/designs/design.ts'
import type { TemplateView } from '../../../core/achievements/present.ts'

/** What a certificate prints, decided in core (core/files/certificate-model.ts) before any renderer. */

const snapshot = {
  id: 7,
  name: '체스 입문 (스냅샷)',
  nameEn: 'Chess basics',
  type: 'award',
  imprintDescription: '스냅샷 설명',
  criteria: { narrative: '1. 스냅샷 요건', requirements: [] },
  coIssuers: [
    { id: 'did:web:x', name: 'Chess Club', url: null, role: 'representative', isVerified: true },
    { id: null, name: 'Snapshot Partner', url: null, role: 'partner', isVerified: false },
  ],
} as unknown as TemplateView

function input(overrides: Partial<CertificateModelInput> = {}): CertificateModelInput {
  return {
    club: 'chess',
    credential: { id: 'c0ffee00-0000-4000-8000-000000000001', issuedAt: Date.UTC(2025, 1, 28, 23, 30), validUntil: null },
    vc: {
      validFrom: '2025-02-28T23:30:00Z',
      issuer: { name: '체스 클럽' },
      credentialSubject: {
        achievement: {
          name: '체스 입문',
          description: '새긴 설명',
          criteria: { narrative: '1. 새긴 요건' },
          'x-partnerOrganizations': [
            { name: '체스 클럽', role: 'representative' },
            { name: '대한체스연맹', role: 'partner' },
          ],
        },
      },
    },
    snapshot,
    issuance: { id: 4_503_599_627_370_496, sequence: 123, recipient: { name: '김민준', email: 'kim@example.com', externalUserId: null }, revokedAt: null },
    status: 'valid',
    layout: DEFAULT_LAYOUT,
    logo: null,
    shareUrl: 'https://chess.share.example/credentials/c0ffee00-0000-4000-8000-000000000001',
    ...overrides,
  }
}

describe('the certificate model', () => {
  it('numbers by the legacy prefix when there is one, else CC-<club>, with the issuance sequence (never its random id) in six digits', () => {
    assert.equal(certificateNumber('chess', 'chess', 123), 'CHESS-000123')
    assert.equal(certificateNumber(null, 'chess', 123), 'CC-CHESS-000123')
    assert.equal(certificateNumber(null, 'go-club', 1234567), 'CC-GO-CLUB-1234567')
    assert.equal(buildCertificateModel(input()).number, 'CC-CHESS-000123', 'snapshots carry no prefix yet')
    const prefixed = { ...snapshot, prefix: 'Chess' } as TemplateView
    assert.equal(buildCertificateModel(input({ snapshot: prefixed })).number, 'CHESS-000123', 'a prefix in the snapshot is used')
  })

  it('dates in Korea Standard Time: 23:30 UTC on 28 February is 1 March in Seoul', () => {
    assert.deepEqual(certificateDate(Date.UTC(2025, 1, 28, 23, 30)), { iso: '2025-03-01', ko: '2025년 3월 1일', en: '1 March 2025' })
    assert.deepEqual(certificateDate(Date.UTC(2024, 11, 31, 14, 59)), { iso: '2024-12-31', ko: '2024년 12월 31일', en: '31 December 2024' })
    assert.equal(buildCertificateModel(input()).issuedOn.iso, '2025-03-01')
  })

  it('takes the achievement, issuer and partners from the signed credential, nameEn and the heading from the snapshot', () => {
    const model = buildCertificateModel(input())
    assert.deepEqual(model.achievement, { name: '체스 입문', nameEn: 'Chess basics', description: '새긴 설명', criteria: '1. 새긴 요건' })
    assert.deepEqual(model.issuer, { name: '체스 클럽' })
    assert.deepEqual(model.coIssuers, [{ name: '대한체스연맹' }], 'partners only; the representative is the issuer')
    assert.deepEqual(model.heading, { ko: '상장', en: 'Certificate of Award' })
    assert.equal(model.recipientName, '김민준')
    assert.equal(model.qrUrl, model.shareUrl)
    assert.equal(model.revokedOn, null)
  })

  it('falls back to the snapshot for what an older credential lacks', () => {
    const model = buildCertificateModel(input({ vc: {} }))
    assert.equal(model.achievement.name, '체스 입문 (스냅샷)')
    assert.equal(model.achievement.description, '스냅샷 설명')
    assert.deepEqual(model.coIssuers, [{ name: 'Snapshot Partner' }])
    assert.equal(model.issuer.name, 'Chess Club')
  })

  it('leaves out what the layout hides', () => {
    const layout = { ...DEFAULT_LAYOUT, show: { description: false, criteria: false, coIssuers: false, qrCode: false } }
    const model = buildCertificateModel(input({ layout }))
    assert.equal(model.achievement.description, null)
    assert.equal(model.achievement.criteria, null)
    assert.deepEqual(model.coIssuers, [])
    assert.equal(model.qrUrl, null)
    assert.equal('logoImage' in model.layout, false, 'images travel as bytes in `logo`, not as hashes in the layout')
  })

  it('a revoked certificate carries its revocation date; the reason is never part of the model', () => {
    const model = buildCertificateModel(
      input({
        status: 'revoked',
        issuance: {
          id: 7_038_454_311_622_301,
          sequence: 1,
          recipient: { name: 'A', email: 'a@b.c', externalUserId: null },
          revokedAt: Date.UTC(2025, 5, 1, 16),
        },
      }),
    )
    assert.equal(model.status, 'revoked')
    assert.deepEqual(model.revokedOn, { iso: '2025-06-02', ko: '2025년 6월 2일', en: '2 June 2025' })
    assert.equal(JSON.stringify(model).includes('reason'), false)
  })
})
