import * as v from 'valibot'
import { validationFailed, type FieldError } from '../errors.ts'
import { isJsonObject } from './json-object.ts'

/** Parses `input` with `schema`, or throws 422 `validation-failed` listing every failed field. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  if (!isJsonObject(input)) {
    throw validationFailed([{ message: 'must-be-object', path: '' }], 'The body must be a JSON object.')
  }
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  throw validationFailed(result.issues.map((issue) => fieldErrorOf(issue)))
}

/**
 * The one way a valibot issue becomes a field error: its code, and its path as dotted keys under
 * `prefix` (a batch names the entry, `recipients.3`).
 */
export function fieldErrorOf(issue: v.BaseIssue<unknown>, prefix: readonly (string | number)[] = []): FieldError {
  const path = [...prefix, ...(issue.path ?? []).map((item) => String(item.key))].join('.')
  // A missing required member reports the object schema's own type issue; name it `required`.
  const message = issue.kind === 'schema' && issue.input === undefined ? 'required' : issue.message
  return { message, path }
}
