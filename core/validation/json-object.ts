import * as v from 'valibot'

export const isJsonObject = (input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && !Array.isArray(input)

/**
 * A member that must be a JSON object: any other value, an array too, is `must-be-object` (valibot's
 * object schemas take an array for an object, so `criteria: []` would pass as a patch that changes
 * nothing); an unknown member inside is `unknown-field`.
 */
export function jsonObject<const E extends v.ObjectEntries>(entries: E) {
  const object = v.strictObject(entries, 'unknown-field')
  // The object schema rides along on the check, so that the OpenAPI generator can show the object. The
  // check is typed as the object's input, so that `v.InferInput` of the pipe is the object's members,
  // not any record: the library's input types (core/inputs.ts) come from it.
  const isObject = Object.assign(v.custom<v.InferInput<typeof object>>(isJsonObject, 'must-be-object'), { objectSchema: object })
  return v.pipe(isObject, object)
}
