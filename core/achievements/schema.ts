import * as v from 'valibot'
import { MAX, designId, prefixRule, tagList } from './fields.ts'
import { ignored } from '../validation/ignored.ts'
import { programInput, requirementList } from './requirement-input.ts'
import { textEntries } from './texts.ts'
import { jsonObject } from '../validation/json-object.ts'
import { requiredText } from '../validation/text.ts'

/**
 * The v2 write shape of a template (spec §2.3): the single source of what create and patch accept.
 * Reads and writes share one shape, so the read-only fields a client round-trips (`id`, `alignment`,
 * `achievementType`, `coIssuers`, `issuedCount`, `criteria.narrative`, requirement `id`...) are accepted
 * and ignored; any other unknown member is 422 `unknown-field`, which catches typos.
 */
const writeEntries = {
  ...textEntries,
  tag: v.optional(tagList),
  criteria: v.optional(
    jsonObject({
      narrative: ignored,
      requirements: v.optional(requirementList),
    }),
  ),
  program: v.optional(programInput),
  achievementBadgeDesignId: v.optional(designId),
  achievementCertificateDesignId: v.optional(designId),
  prefix: v.optional(v.nullable(prefixRule)),
  // Read-only members of the read shape.
  image: ignored,
  id: ignored,
  alignment: ignored,
  achievementType: ignored,
  coIssuers: ignored,
  issuedCount: ignored,
  createdAt: ignored,
  updatedAt: ignored,
}

export const templatePatchSchema = v.strictObject(writeEntries, 'unknown-field')

export const templateCreateSchema = v.strictObject(
  {
    ...writeEntries,
    name: requiredText(MAX.name),
    description: requiredText(MAX.description, 'multi-line'),
  },
  'unknown-field',
)

export type TemplatePatchInput = v.InferOutput<typeof templatePatchSchema>
export type TemplateCreateInput = v.InferOutput<typeof templateCreateSchema>
