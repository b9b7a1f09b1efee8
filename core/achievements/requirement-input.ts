import * as v from 'valibot'
import { MAX, REQUIREMENTS_MAX, requirementOrder, requirementType } from './fields.ts'
import { ignored } from '../validation/ignored.ts'
import { jsonObject } from '../validation/json-object.ts'
import { optionalText } from '../validation/text.ts'
import { optionalUrl } from '../validation/url.ts'

/**
 * The one requirement write shape (docs/api.md §2.4, §2.12). The surfaces differ in two members only: v1 and
 * legacy send `order` (v2 takes the array position, so `order` is `unknown-field` there), and v2 and v1
 * accept the read-only `id` a client round-trips after a GET (legacy has no read, so no `id`).
 */
const requirementEntries = {
  type: requirementType,
  description: optionalText(MAX.requirement, 'multi-line'),
  url: optionalUrl,
}

/** docs/api.md §4.10 rule 4: a requirement needs a description or a url. */
function withDescriptionOrUrl<S extends v.GenericSchema<unknown, { description?: string | null; url?: string | null }>>(schema: S) {
  return v.pipe(
    schema,
    v.check((requirement: v.InferOutput<S>) => Boolean(requirement.description) || Boolean(requirement.url), 'requirement-empty'),
  )
}

function list<S extends v.GenericSchema>(requirement: S) {
  return v.pipe(v.array(requirement, 'must-be-array'), v.maxLength(REQUIREMENTS_MAX, 'too-many-requirements'))
}

/** v2 (docs/api.md §2.4): the array position is the order. */
export const requirementList = list(withDescriptionOrUrl(jsonObject({ id: ignored, ...requirementEntries })))

/** v1 (docs/api.md §4.12): the client sends `order`. */
export const orderedRequirementList = list(withDescriptionOrUrl(jsonObject({ id: ignored, ...requirementEntries, order: v.optional(requirementOrder) })))

/** Legacy form creation (docs/api.md §2.12): `order`, and no read to round-trip an `id` from. */
export const legacyRequirementList = list(
  // The same members, in the order the legacy body has always listed them (docs/api.md §2.12): its error message
  // names the failed members in this order.
  withDescriptionOrUrl(
    jsonObject({
      type: requirementEntries.type,
      url: requirementEntries.url,
      description: requirementEntries.description,
      order: v.optional(requirementOrder),
    }),
  ),
)

const isPublic = v.optional(v.boolean('must-be-boolean'))

/** The program of v2 (docs/api.md §2.5); `null` removes it. */
export const programInput = v.nullable(jsonObject({ name: optionalText(MAX.programName), url: optionalUrl, isPublic }))

/** The program of v1, which also carries the legacy `type` (members in the order v1 has always listed them). */
export const v1ProgramInput = v.nullable(jsonObject({ name: optionalText(MAX.programName), type: optionalText(MAX.programName), url: optionalUrl, isPublic }))
