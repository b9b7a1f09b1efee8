import * as v from 'valibot'
import { validationFailed, type FieldError } from '../errors.ts'
import type { TextLines } from '../text/plain-text.ts'
import {
  MAX,
  designId,
  prefixRule,
  jsonObject,
  REQUIREMENTS_MAX,
  englishText,
  hasDescriptionOrUrl,
  optionalText,
  optionalUrl,
  requiredText,
  requirementType,
  tagList,
  templateType,
} from './fields.ts'

/**
 * The v2 write shape of a template (spec §2.3): the single source of what create and patch accept.
 * Reads and writes share one shape, so the read-only fields a client round-trips (`id`, `alignment`,
 * `achievementType`, `coIssuers`, `issuedCount`, `criteria.narrative`, requirement `id`...) are accepted
 * and ignored; any other unknown member is 422 `unknown-field`, which catches typos.
 */
const ignored = v.optional(v.unknown())

export const requirementInput = v.pipe(
  jsonObject({
    id: ignored,
    type: requirementType,
    description: optionalText(MAX.requirement, 'multi-line'),
    url: optionalUrl,
  }),
  v.check((requirement) => hasDescriptionOrUrl(requirement), 'requirement-empty'),
)

export const programInput = v.nullable(
  jsonObject({
    name: optionalText(MAX.programName),
    url: optionalUrl,
    isPublic: v.optional(v.boolean('must-be-boolean')),
  }),
)

/** A required text that a patch may send but not empty: `""`, blank and `null` are all `required` (rule 1). */
export const notEmptied = (max: number, lines: TextLines = 'single-line') =>
  v.optional(v.pipe(v.nullable(requiredText(max, lines)), v.check((value) => value !== null, 'required')))

/**
 * The texts of a template, the same members on v2 and v1 (spec §4.10 rules 1 and 3). Names are one
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

const writeEntries = {
  ...textEntries,
  tag: v.optional(tagList),
  criteria: v.optional(
    jsonObject({
      narrative: ignored,
      requirements: v.optional(v.pipe(v.array(requirementInput, 'must-be-array'), v.maxLength(REQUIREMENTS_MAX, 'too-many-requirements'))),
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

/** Parses `input` with `schema`, or throws 422 `validation-failed` listing every failed field. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw validationFailed([{ message: 'must-be-object', path: '' }], 'The body must be a JSON object.')
  }
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  throw validationFailed(result.issues.map(toFieldError))
}

function toFieldError(issue: v.BaseIssue<unknown>): FieldError {
  const path = (issue.path ?? []).map((item) => String(item.key)).join('.')
  // A missing required member reports the object schema's own type issue; name it `required`.
  const message = issue.kind === 'schema' && issue.input === undefined ? 'required' : issue.message
  return { message, path }
}
