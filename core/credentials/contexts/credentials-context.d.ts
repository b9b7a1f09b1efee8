/** Types for the untyped @digitalbazaar/credentials-context (the W3C VC contexts as data): only what core reads. */
declare module '@digitalbazaar/credentials-context' {
  /** Each context by its URL (`https://www.w3.org/ns/credentials/v2`, …). */
  export const contexts: ReadonlyMap<string, Record<string, unknown>>
}
