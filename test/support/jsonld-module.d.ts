/**
 * Types for the untyped `jsonld` (Digital Bazaar's JSON-LD processor, v9), which the strict JSON-LD test
 * uses as the 1EdTech validator uses its own: only what it calls.
 */
declare module 'jsonld' {
  export interface RemoteDocument {
    contextUrl: string | null
    documentUrl: string
    document: unknown
  }
  export interface ExpandOptions {
    /** Throws on every term that would be dropped or left relative (JSON-LD "safe mode"). */
    safe?: boolean
    documentLoader?: (url: string) => Promise<RemoteDocument>
  }
  const jsonld: {
    expand(input: unknown, options?: ExpandOptions): Promise<Record<string, unknown>[]>
  }
  export default jsonld
}
