import { toBase64Url } from '../../core/crypto/base64url.ts'
import { DEFAULT_LAYOUT, IMAGE_TYPES } from '../../core/designs/design.ts'
import type { DesignCreateBody, DesignPatchBody } from '../../core/inputs.ts'
import type { DesignView } from '../../core/designs/present.ts'
import type { UploadedFile } from './multipart.ts'

/** What a certificate layout may show (docs/api.md §4.14 `layout.show`), in the form's order. */
export const SHOWN = ['description', 'criteria', 'coIssuers', 'qrCode'] as const
export type Shown = (typeof SHOWN)[number]

/**
 * The design form as typed (docs/admin-console.md § Designs): strings and ticks, so that a refused form is
 * shown again as sent. Files are not kept: a browser cannot be given a file back, so a refused upload is
 * chosen again.
 */
export interface DesignFormValues {
  kind: string
  name: string
  orientation: string
  primaryColor: string
  textColor: string
  backgroundColor: string
  show: Record<Shown, boolean>
  removeLogo: boolean
}

/** A new design's form: the default layout's values, so that what is shown is what is stored. */
export function emptyDesignForm(kind: string): DesignFormValues {
  const { orientation, primaryColor, textColor, backgroundColor, show } = DEFAULT_LAYOUT
  return { kind, name: '', orientation, primaryColor, textColor, backgroundColor, show: { ...show }, removeLogo: false }
}

export function formOfDesign(design: DesignView): DesignFormValues {
  const layout = design.layout
  return {
    ...emptyDesignForm(design.kind),
    name: design.name,
    ...(layout
      ? {
          orientation: layout.orientation,
          primaryColor: layout.primaryColor,
          textColor: layout.textColor,
          backgroundColor: layout.backgroundColor,
          show: { ...layout.show },
        }
      : {}),
  }
}

export function formOfDesignPost(form: URLSearchParams): DesignFormValues {
  const text = (name: string) => form.get(name) ?? ''
  return {
    kind: text('kind'),
    name: text('name'),
    orientation: text('orientation'),
    primaryColor: text('primaryColor'),
    textColor: text('textColor'),
    backgroundColor: text('backgroundColor'),
    show: Object.fromEntries(SHOWN.map((key) => [key, form.get(`show.${key}`) === 'on'])) as Record<Shown, boolean>,
    removeLogo: form.get('removeLogo') === 'on',
  }
}

/**
 * An uploaded file as the API's image member `{ mediaType, data }`. The media type is the one the browser
 * sent; a browser that sends none (or a generic one) for a `.png` or `.svg` file gets the extension's.
 * Anything else goes to the API as sent, which refuses it (`unsupported-image-type`).
 */
export function imageOf(file: UploadedFile): { mediaType: (typeof IMAGE_TYPES)[number]; data: string } {
  const sent = (IMAGE_TYPES as readonly string[]).includes(file.mediaType) ? file.mediaType : null
  const byName = /\.png$/i.test(file.filename) ? 'image/png' : /\.svg$/i.test(file.filename) ? 'image/svg+xml' : null
  const generic = file.mediaType === '' || file.mediaType === 'application/octet-stream'
  const mediaType = sent ?? (generic ? byName : null) ?? (file.mediaType || 'application/octet-stream')
  return { mediaType: mediaType as (typeof IMAGE_TYPES)[number], data: toBase64Url(file.bytes) }
}

/**
 * The API's body of the form (docs/api.md §4.14), for `issuer.designs.create` or `patch`: a badge sends
 * its image when one was chosen, a certificate its whole layout (the logo when one was chosen, `null`
 * when "remove" was ticked). The API's rules judge it, the kind included.
 */
export function bodyOfDesignForm(values: DesignFormValues, files: Map<string, UploadedFile>): DesignCreateBody & DesignPatchBody {
  const image = files.get('image')
  const logo = files.get('logo')
  const body: DesignCreateBody & DesignPatchBody = { kind: values.kind as DesignCreateBody['kind'], name: values.name }
  if (values.kind === 'badge') return image ? { ...body, image: imageOf(image) } : body
  return {
    ...body,
    layout: {
      orientation: values.orientation as 'landscape' | 'portrait',
      primaryColor: values.primaryColor,
      textColor: values.textColor,
      backgroundColor: values.backgroundColor,
      show: { ...values.show },
      ...(logo ? { logo: imageOf(logo) } : values.removeLogo ? { logo: null } : {}),
    },
  }
}

/**
 * The form field a problem's `errors[].path` names: `image.mediaType` is the image input, `layout.logo.data`
 * the logo input, `layout.show.qrCode` the "show" boxes. `null`: no field (the kind, the whole layout),
 * so the error is shown above the form.
 */
export function designFieldOfPath(path: string): string | null {
  if (path === 'name') return 'name'
  if (path === 'image' || path.startsWith('image.')) return 'image'
  if (path === 'layout.logo' || path.startsWith('layout.logo.')) return 'logo'
  if (path === 'layout.show' || path.startsWith('layout.show.')) return 'show'
  const member = /^layout\.(orientation|primaryColor|textColor|backgroundColor)$/.exec(path)
  return member ? member[1]! : null
}
