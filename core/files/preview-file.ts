import { validationFailed } from '../errors.ts'
import { requireClub } from '../clubs/require.ts'
import { readTemplate } from '../achievements/read.ts'
import { shareUrl } from '../credentials/urls.ts'
import { DEFAULT_LAYOUT, type CertificateLayout, type Design, type StoredImage } from '../designs/design.ts'
import { requireDesign } from '../designs/write.ts'
import { badgeImageOf, badgePng, badgeSvg, requirePngBadge } from './badge-picture.ts'
import { certificateDesignOf } from './certificate-design.ts'
import { buildCertificateModel, type CertificateSnapshot } from './certificate-model.ts'
import { MEDIA_TYPES, requireFileFormat, type FileFormat } from './prepare-file.ts'
import type { IssuerContext } from '../context.ts'
import type { CertificateRenderer } from '../ports/certificate-renderer.ts'
import type { RenderGate } from './render-gate.ts'

/**
 * Previews for the staff console (docs/admin-console.md § Designs): what the issuance file of
 * docs/api.md §4.6 would look like for a template (its badge and certificate designs) or for one design,
 * before anything is issued. The badge is the picture the file bakes a credential into, unbaked (there
 * is no credential to bake); the certificate is rendered by the server's renderer for a sample recipient,
 * marked as a sample in the name and the number. Nothing is stored or signed.
 */

/** Printed as the recipient: no real person's data, and plainly a sample in both languages. */
export const SAMPLE_RECIPIENT = '홍길동 / Sample Recipient'
/** Printed as the certificate number. */
export const SAMPLE_NUMBER = '견본 SAMPLE'

export interface FilePreview {
  format: FileFormat
  mediaType: string
  /** An ASCII file name for `Content-Disposition`. */
  filename: string
  bytes: Uint8Array
}

export interface FilePreviews {
  /** A template's badge (`png`, `svg`) or certificate (`pdf`); `achievement-not-found` for another club's id. */
  template(club: string, id: number, format: string | null): Promise<FilePreview>
  /** A badge design's badge (`png`, `svg`) or a certificate design's certificate (`pdf`) for a sample template. */
  design(club: string, id: number, format: string | null): Promise<FilePreview>
}

/**
 * The previews, on the checks of the issuance file: the formats it supports (`pdf` only with a renderer,
 * else 422 `unsupported-format`), `no-png-badge` for an SVG design, and PDFs through the same render gate.
 */
export function createFilePreviews(ctx: IssuerContext, renderer: CertificateRenderer | null, gate: RenderGate): FilePreviews {
  const pdf = async (club: string, snapshot: CertificateSnapshot, layout: CertificateLayout, logo: StoredImage | null): Promise<Uint8Array> => {
    const now = ctx.clock.now()
    const model = buildCertificateModel({
      club,
      credential: { id: 'sample', issuedAt: now, validUntil: null },
      vc: {},
      snapshot,
      issuance: { id: 0, sequence: 0, recipient: { name: SAMPLE_RECIPIENT, email: '', externalUserId: null }, revokedAt: null },
      status: 'valid',
      layout,
      logo,
      shareUrl: shareUrl(ctx.config, club, 'sample'),
    })
    return gate.run(() => renderer!.renderPdf({ ...model, number: SAMPLE_NUMBER }))
  }
  const badge = async (format: 'png' | 'svg', image: StoredImage | null, names: { templateName: string; clubName: string }) => {
    if (format === 'png') requirePngBadge(image)
    return format === 'png' ? badgePng(image) : new TextEncoder().encode(badgeSvg(image, names))
  }
  const preview = (format: FileFormat, name: string, bytes: Uint8Array): FilePreview => ({
    format,
    mediaType: MEDIA_TYPES[format],
    filename: `${name}-preview${format === 'pdf' ? '' : '-badge'}.${format}`,
    bytes,
  })

  return {
    async template(club, id, format) {
      const chosen = requireFileFormat(renderer, format)
      const template = await readTemplate(ctx, club, id)
      const name = `template-${template.id}`
      if (chosen === 'pdf') {
        const { layout, logo } = await certificateDesignOf(ctx, club, template.achievementCertificateDesignId)
        return preview(chosen, name, await pdf(club, template, layout, logo))
      }
      const names = { templateName: template.name, clubName: template.coIssuers[0]?.name ?? club }
      return preview(chosen, name, await badge(chosen, await badgeImageOf(ctx, template.image), names))
    },

    async design(club, id, format) {
      const chosen = requireFileFormat(renderer, format)
      const design = await requireDesign(ctx.storage, club, id)
      const name = `design-${design.id}`
      requireFormatOfKind(design, chosen)
      const owner = await requireClub(ctx.storage, club)
      if (chosen === 'pdf') {
        const logo = design.layout?.logoImage ? await ctx.storage.images.findByHash(design.layout.logoImage) : null
        return preview(chosen, name, await pdf(club, sampleTemplate(owner.name), design.layout ?? DEFAULT_LAYOUT, logo))
      }
      const image = design.image ? await ctx.storage.images.findByHash(design.image) : null
      return preview(chosen, name, await badge(chosen, image, { templateName: design.name, clubName: owner.name }))
    },
  }
}

/** A badge design has no certificate and a certificate design no badge: 422 `unsupported-format`. */
function requireFormatOfKind(design: Design, format: FileFormat): void {
  if ((design.kind === 'badge') === (format === 'pdf')) {
    throw validationFailed(
      [{ message: 'unsupported-format', path: 'format' }],
      design.kind === 'badge' ? 'A badge design previews as png or svg.' : 'A certificate design previews as pdf.',
    )
  }
}

/** The template a certificate design is shown with: every field the layout may show, each marked as a sample. */
function sampleTemplate(clubName: string): CertificateSnapshot {
  return {
    name: '견본 템플릿',
    nameEn: 'Sample template',
    type: 'completion',
    imprintDescription: '디자인을 미리 보기 위한 견본입니다. This is a sample to preview the design.',
    criteria: { narrative: '견본 이수 요건 · Sample criteria', requirements: [] },
    coIssuers: [
      { id: null, name: clubName, url: null, role: 'representative', isVerified: false },
      { id: null, name: '견본 협력 기관 · Sample partner', url: null, role: 'partner', isVerified: false },
    ],
    prefix: null,
  }
}
