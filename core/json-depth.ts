import { validationFailed } from './errors.ts'

/**
 * How deeply arrays and objects may nest in a request body. The deepest write shape clubcred knows
 * (a design's `layout.show`) nests 3 levels; 64 leaves room for any real client while keeping every
 * recursive walk over input (the idempotency fingerprint, validation) far from the stack limit.
 * The HTTP face refuses deeper bodies at parse time (400 `invalid-json`); the library refuses them
 * where it walks them (422 `nesting-too-deep`), so `unknown` input from an embedder is safe too.
 */
export const MAX_JSON_DEPTH = 64

/** 422 `validation-failed` with `nesting-too-deep` at the body's root. */
export function nestingTooDeep(): Error {
  return validationFailed([{ message: 'nesting-too-deep', path: '' }], `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`)
}
