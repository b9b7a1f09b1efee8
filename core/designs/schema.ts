import * as v from 'valibot'
import { ignored } from '../validation/ignored.ts'
import { jsonObject } from '../validation/json-object.ts'
import { requiredText } from '../validation/text.ts'
import { DESIGN_KINDS, IMAGE_TYPES } from './design.ts'

/** An uploaded image: `{ mediaType, data }` with `data` base64 (standard or url-safe). */
export const imageInput = jsonObject({
  mediaType: v.picklist(IMAGE_TYPES, 'unsupported-image-type'),
  data: v.pipe(v.string('must-be-string'), v.minLength(1, 'required'), v.maxLength(400_000, 'image-too-large')),
})

const color = v.pipe(v.string('must-be-string'), v.regex(/^#[0-9a-fA-F]{6}$/, 'invalid-color'))

export const layoutInput = jsonObject({
  orientation: v.optional(v.picklist(['landscape', 'portrait'], 'invalid-orientation')),
  primaryColor: v.optional(color),
  textColor: v.optional(color),
  backgroundColor: v.optional(color),
  logo: v.optional(v.nullable(imageInput)),
  show: v.optional(
    jsonObject({
      description: v.optional(v.boolean('must-be-boolean')),
      criteria: v.optional(v.boolean('must-be-boolean')),
      coIssuers: v.optional(v.boolean('must-be-boolean')),
      qrCode: v.optional(v.boolean('must-be-boolean')),
    }),
  ),
})

/** The write shape of a design; read-only members of the read shape are accepted and ignored. */
const entries = {
  name: v.optional(requiredText(200)),
  image: v.optional(v.nullable(imageInput)),
  layout: v.optional(layoutInput),
  id: ignored,
  imageUrl: ignored,
  createdAt: ignored,
  updatedAt: ignored,
}

export const designCreateSchema = jsonObject({
  ...entries,
  kind: v.picklist(DESIGN_KINDS, 'unknown-design-kind'),
  name: requiredText(200),
})

/** `kind` cannot change; sending the same kind back is accepted. */
export const designPatchSchema = jsonObject({ ...entries, kind: v.optional(v.picklist(DESIGN_KINDS, 'unknown-design-kind')) })

export type DesignCreateInput = v.InferOutput<typeof designCreateSchema>
export type DesignPatchInput = v.InferOutput<typeof designPatchSchema>
export type ImageInput = v.InferOutput<typeof imageInput>
