/** Valibot issues as field errors, in one place for every resource (core/validation/parse-input.ts). */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as v from 'valibot'
import { ProblemError } from '../../../core/errors.ts'
import { fieldErrorOf, parseInput } from '../../../core/validation/parse-input.ts'

const schema = v.strictObject(
  {
    name: v.string('must-be-string'),
    evidence: v.optional(v.array(v.strictObject({ url: v.string('must-be-string') }, 'unknown-field'))),
  },
  'unknown-field',
)

function errorsOf(input: unknown) {
  try {
    parseInput(schema, input)
  } catch (error) {
    assert.ok(error instanceof ProblemError)
    assert.equal(error.code, 'validation-failed')
    return error.errors
  }
  assert.fail('expected validation-failed')
}

describe('parseInput and fieldErrorOf', () => {
  it('a body that is not a JSON object is must-be-object at the root', () => {
    for (const body of [null, [], 'text', 3]) assert.deepEqual(errorsOf(body), [{ message: 'must-be-object', path: '' }])
  })

  it('a missing member is required; the path names nested members with dots', () => {
    assert.deepEqual(errorsOf({ evidence: [{ url: 1 }], typo: true }), [
      { message: 'required', path: 'name' },
      { message: 'must-be-string', path: 'evidence.0.url' },
      { message: 'unknown-field', path: 'typo' },
    ])
  })

  it('a prefix names the entry of a batch before the member', () => {
    const result = v.safeParse(schema, { name: 'Kim', evidence: [{}] })
    assert.equal(result.success, false)
    assert.deepEqual(fieldErrorOf(result.issues![0]!, ['recipients', 3]), { message: 'required', path: 'recipients.3.evidence.0.url' })
  })

  it('a valid body comes back parsed', () => {
    assert.deepEqual(parseInput(schema, { name: 'Kim' }), { name: 'Kim' })
  })
})
