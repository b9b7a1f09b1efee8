import * as v from 'valibot'
import { MAX, englishText, notEmptied, templateType } from './fields.ts'
import { optionalText } from '../validation/text.ts'
import type { TemplateChanges } from './draft.ts'

/**
 * The texts of a template, the same members on v2 and v1 (docs/api.md §4.10 rules 1 and 3). Names are one
 * line; descriptions (and the engraved ones) may span lines.
 */
export const textEntries = {
  name: notEmptied(MAX.name),
  nameEn: v.optional(englishText(MAX.name)),
  type: v.optional(templateType),
  description: notEmptied(MAX.description, 'multi-line'),
  descriptionEn: v.optional(englishText(MAX.description, 'multi-line')),
  imprintDescription: v.optional(optionalText(MAX.description, 'multi-line')),
  imprintDescriptionEn: v.optional(englishText(MAX.description, 'multi-line')),
}

type Texts = v.InferOutput<v.ObjectSchema<typeof textEntries, undefined>>

/** The texts as changes. `null` never reaches here for a name or description: `notEmptied` refuses it. */
export function textChanges(body: Texts): TemplateChanges {
  return {
    name: body.name ?? undefined,
    nameEn: body.nameEn,
    type: body.type,
    description: body.description ?? undefined,
    descriptionEn: body.descriptionEn,
    imprintDescription: body.imprintDescription,
    imprintDescriptionEn: body.imprintDescriptionEn,
  }
}
