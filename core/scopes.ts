/** The scopes of docs/api.md §2.2, in the order it lists them. */
export const SCOPE_NAMES = [
  'clubs:read',
  'billing:read',
  'achievements:read',
  'achievements:manage',
  'designs:read',
  'designs:manage',
  'issuance:read',
  'issuance:write',
  'issuance:revoke',
  'events:read',
] as const

export type ScopeName = (typeof SCOPE_NAMES)[number]

/** Requested scope strings have the shape `<prefix>:openapi:<scope>` with the prefix `svc` (docs/api.md §5 item 4). */
export const SCOPE_PREFIX = 'svc:openapi:'

export function isScopeName(value: string): value is ScopeName {
  return (SCOPE_NAMES as readonly string[]).includes(value)
}

export function toScopeString(name: ScopeName): string {
  return SCOPE_PREFIX + name
}

/** The scope name inside a `svc:openapi:<scope>` string, or `null` when it is not one. */
export function parseScopeString(value: string): ScopeName | null {
  if (!value.startsWith(SCOPE_PREFIX)) return null
  const name = value.slice(SCOPE_PREFIX.length)
  return isScopeName(name) ? name : null
}
