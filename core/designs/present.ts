import { imageUrl } from '../credentials/urls.ts'
import type { IssuerConfig } from '../config.ts'
import type { CertificateLayout, Design, DesignKind } from './design.ts'

/** A design as read: images by their public, immutable address. */
export interface DesignView {
  id: number
  kind: DesignKind
  name: string
  imageUrl: string | null
  layout: (Omit<CertificateLayout, 'logoImage'> & { logoUrl: string | null }) | null
  createdAt: string
  updatedAt: string
}

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
