import { DEFAULT_LAYOUT, type CertificateLayout, type StoredImage } from '../designs/design.ts'
import type { IssuerContext } from '../context.ts'

/**
 * The look of a certificate: the layout and logo of the certificate design a template names, or the
 * default layout when it names none (or the design is gone or not a certificate design).
 */
export async function certificateDesignOf(
  ctx: IssuerContext,
  club: string,
  designId: number | null,
): Promise<{ layout: CertificateLayout; logo: StoredImage | null }> {
  const design = designId === null ? null : await ctx.storage.designs.findById(club, designId)
  const layout = design?.kind === 'certificate' && design.layout ? design.layout : DEFAULT_LAYOUT
  const logo = layout.logoImage ? await ctx.storage.images.findByHash(layout.logoImage) : null
  return { layout, logo }
}
