/**
 * Whether a credential holds a node whose `id` is `null` anywhere. JSON-LD expansion refuses an `@id` that
 * is no string ("invalid @id value"), so such a credential can never have a Data Integrity proof: its
 * JWT never changes, and neither would the refusal. clubcred engraved one for a partner co-issuer
 * without a url, whose `id` `build-ob3.ts` now leaves out (docs/decisions/0051-one-csv-path-and-no-null-id.md).
 */
export function holdsNullId(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsNullId)
  if (value === null || typeof value !== 'object') return false
  const node = value as Record<string, unknown>
  if ('id' in node && node.id === null) return true
  return Object.values(node).some(holdsNullId)
}
