import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { decodeJwt } from 'jose'
import { ProblemError, validationFailed } from '../errors.ts'
import { credentialStatus, type CredentialStatus } from '../credentials/status.ts'
import { shareUrl } from '../credentials/urls.ts'
import { requireIssuance } from '../issuances/read.ts'
import { bakePng } from './bake-png.ts'
import { bakeSvg } from './bake-svg.ts'
import { badgeImageOf, badgePng, badgeSvg, requirePngBadge } from './badge-picture.ts'
import { certificateDesignOf } from './certificate-design.ts'
import { buildCertificateModel, certificateNumber, snapshotPrefix, type CertificateModel, type EngravedCredential } from './certificate-model.ts'
import type { IssuerContext } from '../context.ts'
import type { CertificateRenderer } from '../ports/certificate-renderer.ts'
import type { Issuance } from '../issuances/issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { TemplateView } from '../achievements/present.ts'
import type { RenderCache } from './render-cache.ts'
import type { RenderGate } from './render-gate.ts'

/** The file formats of `GET .../issuances/{id}/file` (docs/api.md §4.6 shows `pdf`; clubcred adds baked badges). */
export const FILE_FORMATS = ['pdf', 'png', 'svg'] as const
export type FileFormat = (typeof FILE_FORMATS)[number]

/**
 * Bumped whenever a rendering changes for the same inputs (layout code, font, badge drawing), so that
 * ETags computed before no longer match.
 */
export const FILE_RENDITION = 2

export const MEDIA_TYPES: Record<FileFormat, string> = { pdf: 'application/pdf', png: 'image/png', svg: 'image/svg+xml' }

/** A file ready to send: its validators and names now, its bytes on `render()` (skipped on a 304). */
export interface IssuanceFile {
  format: FileFormat
  mediaType: string
  /**
   * Strong ETag `"<credential id>.<format>.<status>.<digest>"`: the file is a function of the immutable
   * credential, its status (revocation marks the PDF) and the rendering inputs (the design's layout and
   * images, `FILE_RENDITION`), all in the digest, so it changes exactly when the bytes may.
   */
  etag: string
  /** An ASCII file name (the certificate number) and the full UTF-8 one (template and recipient). */
  filename: { ascii: string; utf8: string }
  render(): Promise<Uint8Array>
}

/** How renderings are shared and bounded (`issuance-files.ts` wires them); without them, every `render()` renders. */
export interface FileRendering {
  /** Keeps rendered files by their strong ETag. */
  cache?: RenderCache | null
  /** Bounds the PDF renderings running at once. */
  gate?: RenderGate | null
}

/** The formats an issuer serves: `pdf` only with a certificate renderer. */
export function supportedFormats(renderer: CertificateRenderer | null): FileFormat[] {
  return renderer ? [...FILE_FORMATS] : FILE_FORMATS.filter((format) => format !== 'pdf')
}

/** The format asked for, or 422 `validation-failed` with `unsupported-format` at `format`, the detail listing the supported ones. */
export function requireFileFormat(renderer: CertificateRenderer | null, format: string | null): FileFormat {
  const supported = supportedFormats(renderer)
  if (!supported.includes(format as FileFormat)) {
    throw validationFailed(
      [{ message: 'unsupported-format', path: 'format' }],
      `${format ? `The format ${JSON.stringify(format)} is not supported` : 'The query parameter format is required'}; supported formats: ${supported.join(', ')}.`,
    )
  }
  return format as FileFormat
}

/**
 * The certificate file of an issuance (docs/api.md §4.6): `pdf` the certificate document, `png` and `svg` the
 * badge image baked with the signed credential (Open Badges 3.0 "Baking"). Checks, in order: the format
 * (422 `validation-failed` with `unsupported-format` at `format`, the detail listing the supported ones),
 * the issuance (404 `issuance-not-found`), the credential (409 `credential-pending` for every format).
 * Everything printed comes from the credential and its snapshot, never from the live template.
 */
export async function prepareIssuanceFile(
  ctx: IssuerContext,
  renderer: CertificateRenderer | null,
  club: string,
  issuanceId: number,
  format: string | null,
  rendering: FileRendering = {},
): Promise<IssuanceFile> {
  const chosen = requireFileFormat(renderer, format)
  const issuance = await requireIssuance(ctx.storage, club, issuanceId)
  const credential = await ctx.storage.credentials.findByIssuance(issuance.id)
  if (!credential) {
    throw new ProblemError('credential-pending', {
      detail: 'The signed credential is not created yet, so there is no file; wait for the issuance.credential_issued event.',
    })
  }
  const snapshot = (await ctx.storage.snapshots.findById(issuance.snapshotId))!.view
  const vc = (decodeJwt(credential.jwt).vc ?? {}) as EngravedCredential & { credentialSubject?: { achievement?: { image?: { id?: string } } } }
  const status = credentialStatus({ revokedAt: issuance.revokedAt, validUntil: credential.validUntil }, ctx.clock.now())
  const facts = { issuance, credential, snapshot, vc, status, cache: rendering.cache ?? null }

  if (chosen === 'pdf') {
    const model = await certificateModel(ctx, club, facts)
    const render = () => renderer!.renderPdf(model)
    return file(
      chosen,
      facts,
      digestOf({ model: { ...model, logo: model.logo?.hash ?? null } }),
      model.number,
      rendering.gate ? () => rendering.gate!.run(render) : render,
    )
  }
  const badge = await badgeImageOf(ctx, vc.credentialSubject?.achievement?.image?.id)
  const number = certificateNumber(snapshotPrefix(snapshot), club, issuance.sequence)
  const names = { templateName: vc.credentialSubject?.achievement?.name ?? snapshot.name, clubName: vc.issuer?.name ?? club }
  const digest = digestOf({ badge: badge?.hash ?? null, ...names })
  if (chosen === 'png') {
    requirePngBadge(badge)
    return file(chosen, facts, digest, number, async () => bakePng(await badgePng(badge), credential.jwt))
  }
  return file(chosen, facts, digest, number, async () => new TextEncoder().encode(bakeSvg(badgeSvg(badge, names), credential.jwt)))
}

interface Facts {
  issuance: Issuance
  credential: CredentialRecord
  snapshot: TemplateView
  vc: EngravedCredential
  status: CredentialStatus
  cache: RenderCache | null
}

function file(format: FileFormat, facts: Facts, digest: string, number: string, render: () => Promise<Uint8Array>): IssuanceFile {
  const { credential, snapshot, issuance } = facts
  const base = `${snapshot.name} - ${issuance.recipient.name}`
  const etag = `"${credential.id}.${format}.${facts.status}.${digest}"`
  return {
    format,
    mediaType: MEDIA_TYPES[format],
    etag,
    filename: {
      ascii: `${number}${format === 'pdf' ? '' : '-badge'}.${format}`,
      utf8: `${sanitizeFilename(format === 'pdf' ? base : `${base} badge`)}.${format}`,
    },
    // The strong ETag names these exact bytes, so a rendering kept under it is the rendering.
    render: facts.cache ? () => facts.cache!.getOrRender(etag, render) : render,
  }
}

/** The certificate design the snapshot names (its layout and logo), or the default layout. */
async function certificateModel(ctx: IssuerContext, club: string, facts: Facts): Promise<CertificateModel> {
  const { snapshot, issuance, credential } = facts
  const { layout, logo } = await certificateDesignOf(ctx, club, snapshot.achievementCertificateDesignId)
  return buildCertificateModel({
    club,
    credential,
    vc: facts.vc,
    snapshot,
    issuance,
    status: facts.status,
    layout,
    logo,
    shareUrl: shareUrl(ctx.config, club, credential.id),
  })
}

function digestOf(value: unknown): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify({ rendition: FILE_RENDITION, value })))).slice(0, 16)
}

/** A file name any file system takes: no control characters, separators or reserved punctuation. */
function sanitizeFilename(name: string): string {
  const clean = name
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
  return [...clean].slice(0, 120).join('') || 'certificate'
}
