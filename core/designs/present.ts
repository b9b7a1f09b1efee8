import * as v from 'valibot'
import { imageUrl } from '../credentials/urls.ts'
import { DESIGN_KINDS, type CertificateLayout, type Design } from './design.ts'
import type { IssuerConfig } from '../config.ts'

/** A design as read: images by their public, immutable address; `layout` for certificate designs only. */
export const designViewSchema = v.object({
  id: v.number(),
  kind: v.picklist(DESIGN_KINDS),
  name: v.string(),
  imageUrl: v.nullable(v.string()),
  layout: v.nullable(
    v.object({
      orientation: v.picklist(['landscape', 'portrait']),
      primaryColor: v.string(),
      textColor: v.string(),
      backgroundColor: v.string(),
      show: v.object({ description: v.boolean(), criteria: v.boolean(), coIssuers: v.boolean(), qrCode: v.boolean() }),
      logoUrl: v.nullable(v.string()),
    }),
  ),
  createdAt: v.string(),
  updatedAt: v.string(),
})
export type DesignView = v.InferOutput<typeof designViewSchema>

export function presentDesign(config: IssuerConfig, design: Design): DesignView {
  const { logoImage, ...layout } = design.layout ?? ({} as CertificateLayout)
  return {
    id: design.id,
    kind: design.kind,
    name: design.name,
    imageUrl: design.image ? imageUrl(config, design.image) : null,
    layout: design.layout ? { ...layout, show: { ...layout.show }, logoUrl: logoImage ? imageUrl(config, logoImage) : null } : null,
    createdAt: new Date(design.createdAt).toISOString(),
    updatedAt: new Date(design.updatedAt).toISOString(),
  }
}
