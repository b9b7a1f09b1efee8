import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { ProblemError, validationFailed } from '../errors.ts'
import { parseInput } from '../validation/parse-input.ts'
import { requireClub } from '../clubs/require.ts'
import { DEFAULT_LAYOUT, type CertificateLayout, type Design, type StoredImage } from './design.ts'
import { checkImage, decodeBase64 } from './image.ts'
import { designCreateSchema, designPatchSchema, type ImageInput } from './schema.ts'
import { presentDesign, type DesignView } from './present.ts'
import type { IssuerContext } from '../context.ts'
import type { UnitOfWork } from '../ports/storage.ts'

/**
 * Decodes and checks an uploaded image; 422 with the image's failure code at `path`. An SVG is stored
 * (and addressed by the hash of) its sanitised re-serialisation, never the uploaded bytes.
 */
export async function acceptImage(input: ImageInput, path: string): Promise<StoredImage> {
  const bytes = decodeBase64(input.data)
  if (!bytes) throw validationFailed([{ message: 'image-not-base64', path }])
  const checked = await checkImage(input.mediaType, bytes)
  if (!checked.ok) throw validationFailed([{ message: checked.problem, path }], checked.detail)
  return { hash: bytesToHex(sha256(checked.bytes)), mediaType: input.mediaType, bytes: checked.bytes }
}

/** Creates a design: a badge (image) or a certificate (layout). A badge needs an image. */
export async function createDesign(ctx: IssuerContext, club: string, input: unknown): Promise<DesignView> {
  const body = parseInput(designCreateSchema, input)
  if (body.kind === 'badge' && !body.image) throw validationFailed([{ message: 'required', path: 'image' }])
  if (body.kind === 'badge' && body.layout) throw validationFailed([{ message: 'layout-not-for-badge', path: 'layout' }])
  if (body.kind === 'certificate' && body.image) throw validationFailed([{ message: 'image-not-for-certificate', path: 'image' }])
  const image = body.image ? await acceptImage(body.image, 'image') : null
  const logo = body.layout?.logo ? await acceptImage(body.layout.logo, 'layout.logo') : null
  const now = ctx.clock.now()
  return ctx.storage.transaction(
    async (tx) => {
      await requireClub(tx, club)
      for (const stored of [image, logo]) if (stored) await tx.images.put(stored)
      const design = await tx.designs.insert({
        club,
        kind: body.kind,
        name: body.name,
        image: image?.hash ?? null,
        layout: body.kind === 'certificate' ? mergeLayout(DEFAULT_LAYOUT, body.layout, logo) : null,
        createdAt: now,
        updatedAt: now,
      })
      return presentDesign(ctx.config, design)
    },
    { club },
  )
}

/** Patches a design: only the members sent change; the layout is merged key by key. */
export async function patchDesign(ctx: IssuerContext, club: string, id: number, input: unknown): Promise<DesignView> {
  const body = parseInput(designPatchSchema, input)
  const image = body.image ? await acceptImage(body.image, 'image') : null
  const logo = body.layout?.logo ? await acceptImage(body.layout.logo, 'layout.logo') : null
  return ctx.storage.transaction(
    async (tx) => {
      const current = await requireDesign(tx, club, id)
      if (body.kind !== undefined && body.kind !== current.kind) throw validationFailed([{ message: 'kind-immutable', path: 'kind' }])
      if (current.kind === 'badge' && body.layout) throw validationFailed([{ message: 'layout-not-for-badge', path: 'layout' }])
      if (current.kind === 'certificate' && body.image) throw validationFailed([{ message: 'image-not-for-certificate', path: 'image' }])
      if (current.kind === 'badge' && body.image === null) throw validationFailed([{ message: 'required', path: 'image' }])
      for (const stored of [image, logo]) if (stored) await tx.images.put(stored)
      const next: Design = {
        ...current,
        name: body.name ?? current.name,
        image: image?.hash ?? current.image,
        layout: current.kind === 'certificate' && body.layout ? mergeLayout(current.layout ?? DEFAULT_LAYOUT, body.layout, logo) : current.layout,
        updatedAt: ctx.clock.now(),
      }
      await tx.designs.update(next)
      return presentDesign(ctx.config, next)
    },
    { club },
  )
}

function mergeLayout(
  base: CertificateLayout,
  patch:
    | {
        orientation?: CertificateLayout['orientation']
        primaryColor?: string
        textColor?: string
        backgroundColor?: string
        logo?: unknown
        show?: Partial<CertificateLayout['show']>
      }
    | undefined,
  logo: StoredImage | null,
): CertificateLayout {
  if (!patch) return { ...base, show: { ...base.show } }
  return {
    orientation: patch.orientation ?? base.orientation,
    primaryColor: patch.primaryColor ?? base.primaryColor,
    textColor: patch.textColor ?? base.textColor,
    backgroundColor: patch.backgroundColor ?? base.backgroundColor,
    logoImage: patch.logo === null ? null : (logo?.hash ?? base.logoImage),
    show: { ...base.show, ...Object.fromEntries(Object.entries(patch.show ?? {}).filter(([, value]) => value !== undefined)) },
  }
}

/** The club's design, or 404 `design-not-found`. */
export async function requireDesign(stores: UnitOfWork, club: string, id: number): Promise<Design> {
  const design = Number.isSafeInteger(id) && id > 0 ? await stores.designs.findById(club, id) : null
  if (!design) throw new ProblemError('design-not-found', { detail: `There is no design ${id}.` })
  return design
}
