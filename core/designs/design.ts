/** Designs (docs/api.md §4.10 mentions them; docs/decisions/0020-designs.md gives their scopes): how a credential looks. */
export const DESIGN_KINDS = ['badge', 'certificate'] as const
export type DesignKind = (typeof DESIGN_KINDS)[number]

export const IMAGE_TYPES = ['image/png', 'image/svg+xml'] as const
export type ImageType = (typeof IMAGE_TYPES)[number]

/** An image stored once by content: its address never changes, so credentials can point at it. */
export interface StoredImage {
  /** Hex SHA-256 of the bytes. */
  hash: string
  mediaType: ImageType
  bytes: Uint8Array
}

/** The layout of a certificate design: colours, an optional logo, which fields are shown. */
export interface CertificateLayout {
  orientation: 'landscape' | 'portrait'
  /** `#rrggbb` */
  primaryColor: string
  textColor: string
  backgroundColor: string
  /** Hash of the logo image, or `null`. */
  logoImage: string | null
  /** Which optional fields the certificate shows. */
  show: { description: boolean; criteria: boolean; coIssuers: boolean; qrCode: boolean }
}

export interface Design {
  id: number
  club: string
  kind: DesignKind
  name: string
  /** Badge designs: hash of the badge image. */
  image: string | null
  /** Certificate designs: the layout. */
  layout: CertificateLayout | null
  createdAt: number
  updatedAt: number
}

export type NewDesign = Omit<Design, 'id'>

export const DEFAULT_LAYOUT: CertificateLayout = {
  orientation: 'landscape',
  primaryColor: '#1f3a5f',
  textColor: '#1b1b1f',
  backgroundColor: '#fbfaf7',
  logoImage: null,
  show: { description: true, criteria: true, coIssuers: true, qrCode: true },
}
