import type { TemplateView } from '../achievements/present.ts'
import type { TemplateType } from '../achievements/template.ts'
import type { CredentialStatus } from '../credentials/status.ts'
import type { CertificateLayout, StoredImage } from '../designs/design.ts'
import type { Issuance } from '../issuances/issuance.ts'

/**
 * Everything a certificate document shows, assembled in core from what was issued: the signed credential
 * (`vc`, for the achievement, issuer and partners exactly as engraved), the template snapshot (the parts
 * the credential does not carry: `nameEn`, the internal type, the certificate design it named) and the
 * issuance (the recipient's name, revocation). Never from the live template. Renderers lay it out and
 * decide nothing else, so every rule of what is printed lives here.
 */
export interface CertificateModel {
  /** The certificate number printed on the page (see `certificateNumber`). */
  number: string
  credentialId: string
  /** The document's heading, by template type: `수료증` / `Certificate of Completion`... */
  heading: { ko: string; en: string }
  /**
   * The recipient's display name. It is printed because a certificate is the recipient's own document to
   * show; the credential itself carries only a salted hash of the e-mail address (docs/decisions/0014-signed-credential.md § Recipient).
   */
  recipientName: string
  achievement: {
    name: string
    nameEn: string | null
    /** The engraved description (`achievement.description`), or `null` when the layout hides it. */
    description: string | null
    /** `criteria.narrative`, or `null` when the layout hides it or it is empty. */
    criteria: string | null
  }
  /** The issuing club, as named in the credential's `issuer`. */
  issuer: { name: string }
  /** Partner organisations (`x-partnerOrganizations` after the representative); `[]` when hidden or none. */
  coIssuers: { name: string }[]
  issuedOn: CertificateDate
  validUntil: CertificateDate | null
  status: CredentialStatus
  /** When it was revoked, or `null`. The revocation reason is never printed. */
  revokedOn: CertificateDate | null
  /** The share page the QR code points to, or `null` when the layout hides the QR code. */
  qrUrl: string | null
  /** The share page, printed as text under the QR code and as the document's subject. */
  shareUrl: string
  layout: Omit<CertificateLayout, 'logoImage'>
  /** The layout's logo, or `null`. Renderers draw PNG logos; an SVG logo is left out of the PDF. */
  logo: StoredImage | null
  /** Document metadata: title, author, and the creation date (the credential's `validFrom`). */
  meta: { title: string; author: string; createdAt: string; language: 'ko' }
}

/** A calendar date as printed, in the certificate time zone (`CERTIFICATE_UTC_OFFSET_MINUTES`). */
export interface CertificateDate {
  /** `YYYY-MM-DD` */
  iso: string
  /** `2025년 3월 1일` */
  ko: string
  /** `1 March 2025` */
  en: string
}

/**
 * Dates on certificates are calendar dates in Korea Standard Time (UTC+09:00, no daylight saving): clubs
 * are Korean first, and a credential signed at 08:00 in Seoul is dated that day, not the day before in UTC.
 */
export const CERTIFICATE_UTC_OFFSET_MINUTES = 9 * 60

/** Heading of the document by internal template type (docs/api.md §2.12's enum; docs/decisions/0011-templates.md). */
export const CERTIFICATE_HEADINGS: Record<TemplateType, { ko: string; en: string }> = {
  completion: { ko: '수료증', en: 'Certificate of Completion' },
  activity: { ko: '활동 증명서', en: 'Certificate of Activity' },
  license: { ko: '자격증', en: 'License' },
  career: { ko: '경력 증명서', en: 'Certificate of Experience' },
  award: { ko: '상장', en: 'Certificate of Award' },
  recommendation: { ko: '추천서', en: 'Letter of Recommendation' },
  membership: { ko: '회원 증명서', en: 'Certificate of Membership' },
  degree: { ko: '학위증', en: 'Degree Certificate' },
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

export function certificateDate(ms: number): CertificateDate {
  const local = new Date(ms + CERTIFICATE_UTC_OFFSET_MINUTES * 60_000)
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()]
  return {
    iso: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    ko: `${year}년 ${month}월 ${day}일`,
    en: `${day} ${MONTHS[month - 1]} ${year}`,
  }
}

/**
 * The certificate number: the template's legacy certificate-number prefix (docs/api.md §2.12 `prefix`, letters,
 * printed upper case) and the issuance's sequence padded to six digits, `CHESS-000123`; without a prefix,
 * `CC-<CLUB DOMAIN>-<sequence>`, `CC-CHESS-000123`. The sequence makes it unique within the club and the
 * club domain (or the club's own prefix) across clubs; it is stable, since both parts are fixed at issue.
 * The sequence, not the id: ids are random 16-digit numbers now, and issuances from before
 * keep their numbers, since their sequence is their old id.
 */
export function certificateNumber(prefix: string | null, club: string, issuanceSequence: number): string {
  const serial = String(issuanceSequence).padStart(6, '0')
  return prefix ? `${prefix.toUpperCase()}-${serial}` : `CC-${club.toUpperCase()}-${serial}`
}

/** The parts of the signed credential (`payload.vc`) the certificate prints. */
export interface EngravedCredential {
  validFrom?: string
  validUntil?: string
  issuer?: { name?: string }
  credentialSubject?: {
    achievement?: {
      name?: string
      description?: string
      criteria?: { narrative?: string }
      'x-partnerOrganizations'?: { name?: string; role?: string }[]
    }
  }
}

/** The members of a template the certificate reads: a snapshot as issued, or the live template of a preview. */
export type CertificateSnapshot = Pick<TemplateView, 'name' | 'nameEn' | 'type' | 'imprintDescription' | 'criteria' | 'coIssuers' | 'prefix'>

export interface CertificateModelInput {
  club: string
  credential: { id: string; issuedAt: number; validUntil: number | null }
  vc: EngravedCredential
  snapshot: CertificateSnapshot
  issuance: Pick<Issuance, 'id' | 'sequence' | 'recipient' | 'revokedAt'>
  status: CredentialStatus
  layout: CertificateLayout
  logo: StoredImage | null
  shareUrl: string
}

/**
 * Assembles the model. The achievement, the issuer, the partners and the dates come from the signed
 * credential; `nameEn`, the type and the prefix from the snapshot (the credential does not carry them);
 * the snapshot stands in for a member an older credential lacks.
 */
export function buildCertificateModel(input: CertificateModelInput): CertificateModel {
  const { vc, snapshot, layout } = input
  const achievement = vc.credentialSubject?.achievement ?? {}
  const name = achievement.name ?? snapshot.name
  const description = achievement.description ?? snapshot.imprintDescription
  const narrative = achievement.criteria?.narrative ?? snapshot.criteria.narrative
  const partners =
    achievement['x-partnerOrganizations']?.filter((partner) => partner.role !== 'representative').map((partner) => String(partner.name ?? '')) ??
    snapshot.coIssuers.filter((partner) => partner.role !== 'representative').map((partner) => partner.name)
  const issuedAt = vc.validFrom ? Date.parse(vc.validFrom) : input.credential.issuedAt
  const validUntil = vc.validUntil ? Date.parse(vc.validUntil) : input.credential.validUntil
  const issuerName = vc.issuer?.name ?? snapshot.coIssuers[0]?.name ?? input.club
  const { logoImage: _logo, ...look } = layout
  return {
    number: certificateNumber(snapshotPrefix(snapshot), input.club, input.issuance.sequence),
    credentialId: input.credential.id,
    heading: CERTIFICATE_HEADINGS[snapshot.type] ?? CERTIFICATE_HEADINGS.completion,
    recipientName: input.issuance.recipient.name,
    achievement: {
      name,
      nameEn: snapshot.nameEn,
      description: layout.show.description && description.trim() ? description : null,
      criteria: layout.show.criteria && narrative.trim() ? narrative : null,
    },
    issuer: { name: issuerName },
    coIssuers: layout.show.coIssuers ? partners.filter((partner) => partner.trim()).map((partner) => ({ name: partner })) : [],
    issuedOn: certificateDate(issuedAt),
    validUntil: validUntil === null || Number.isNaN(validUntil) ? null : certificateDate(validUntil),
    status: input.status,
    revokedOn: input.status === 'revoked' && input.issuance.revokedAt !== null ? certificateDate(input.issuance.revokedAt) : null,
    qrUrl: layout.show.qrCode ? input.shareUrl : null,
    shareUrl: input.shareUrl,
    layout: { ...look, show: { ...look.show } },
    logo: input.logo,
    meta: { title: `${name} - ${input.issuance.recipient.name}`, author: issuerName, createdAt: new Date(issuedAt).toISOString(), language: 'ko' },
  }
}

/**
 * The prefix as issued, from the snapshot; a snapshot stored before templates carried `prefix` has none
 * and numbers `CC-<club>-<id>`. The live template's prefix is never read: it can be patched after issue,
 * and a printed number must not change.
 */
export function snapshotPrefix(snapshot: Pick<TemplateView, 'prefix'>): string | null {
  const prefix = (snapshot as { prefix?: unknown }).prefix
  return typeof prefix === 'string' && /^[A-Za-z]{1,5}$/.test(prefix) ? prefix : null
}
