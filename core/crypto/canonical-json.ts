import { MAX_JSON_DEPTH, nestingTooDeep } from '../json-depth.ts'

/**
 * JSON with object keys sorted at every depth: two bodies that differ only in key order or white space
 * serialize alike (the idempotency request fingerprint). The value comes from library callers as
 * `unknown`, so the walk is bounded: nesting deeper than `MAX_JSON_DEPTH` (a cycle too) is 422
 * `nesting-too-deep`, never a stack overflow.
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, 0)
}

function canonical(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (depth === MAX_JSON_DEPTH) throw nestingTooDeep()
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, depth + 1)).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item, depth + 1)}`).join(',')}}`
}
