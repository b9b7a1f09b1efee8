import * as v from 'valibot'
import { MAX, designId, prefixRule, tagList } from './fields.ts'
import { ignored } from '../validation/ignored.ts'
import { programInput, requirementList } from './requirement-input.ts'
import { textChanges, textEntries } from './texts.ts'
import { jsonObject } from '../validation/json-object.ts'
import { requiredText } from '../validation/text.ts'
import { expiryRemindersRule } from './expiry-reminders.ts'
import type { TemplateChanges, TemplateDraft } from './draft.ts'

/**
 * The v2 write shape of a template (docs/api.md §2.3): the single source of what create and patch accept.
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
  expiryReminders: v.optional(expiryRemindersRule),
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

/** A v2 body (docs/api.md §2.3) as changes: `tag`, `criteria.requirements` in array order, design ids. */
export function changesFromV2(body: TemplatePatchInput): TemplateChanges {
  return {
    ...textChanges(body),
    tag: body.tag,
    requirements: body.criteria?.requirements,
    program: body.program,
    prefix: body.prefix,
    badgeDesignId: body.achievementBadgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId,
    expiryReminders: body.expiryReminders,
  }
}

export function draftFromV2(body: TemplateCreateInput): TemplateDraft {
  return { ...changesFromV2(body), name: body.name, description: body.description }
}
