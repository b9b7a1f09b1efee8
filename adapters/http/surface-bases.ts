/**
 * The base a path starts with: `{auth}`, `{base}`, `{public}` or `{legacy}`, the path of the configured
 * `{auth_url}`, `{base_url}`, `{public_url}` or `{legacy_base_url}` (docs/decisions/0001-addresses.md).
 */
export type Surface = 'auth' | 'base' | 'public' | 'legacy'

/** The path of each surface's base URL, without a trailing slash (`''` at the root of its origin). */
export function surfaceBases(urls: { auth: string; base: string; public: string; legacyBase: string }): Record<Surface, string> {
  const pathOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '')
  return { auth: pathOf(urls.auth), base: pathOf(urls.base), public: pathOf(urls.public), legacy: pathOf(urls.legacyBase) }
}

/** An operation's path at its surface's base, placeholders kept: `{base}/v1/forms/{id}` → `/api/v1/forms/{id}`. */
export function atBase(path: string, bases: Record<Surface, string>): string {
  return path.replace(/\{(auth|base|public|legacy)\}/, (_, surface: Surface) => bases[surface])
}

/** Whether an operation belongs to the public surface (its base is `{public}`, also behind a well-known name). */
export const isPublicPath = (path: string): boolean => path.includes('{public}')
