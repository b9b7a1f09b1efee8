import * as v from 'valibot'

/**
 * A read-only member of a read shape, which a client may send back after a GET: accepted and ignored
 * (docs/decisions/0011-templates.md § Write shape; designs likewise). Any other unknown member of a write
 * shape is `unknown-field`, which catches typos.
 */
export const ignored = v.optional(v.unknown())
