/**
 * Rendered files by their strong ETag. A strong ETag names the bytes exactly (the credential, its status
 * and every rendering input are in it: `prepare-file.ts`), so a file rendered once can be sent again as
 * it is, and a stale entry can never be served: other inputs make another tag.
 *
 * Least recently used entries are forgotten first once the bytes held pass `maxBytes`; a file larger than
 * a quarter of that is sent but not kept, so that one large file cannot empty the cache. Concurrent
 * requests for a tag that is being rendered wait for that one rendering. In memory, per issuer.
 */
export interface RenderCache {
  /** The bytes of `etag`: kept ones, the rendering in flight, or `render()`'s (then kept). */
  getOrRender(etag: string, render: () => Promise<Uint8Array>): Promise<Uint8Array>
}

export function createRenderCache({ maxBytes }: { maxBytes: number }): RenderCache {
  const kept = new Map<string, Uint8Array>()
  const inFlight = new Map<string, Promise<Uint8Array>>()
  let bytes = 0

  function keep(etag: string, file: Uint8Array): void {
    if (file.length > maxBytes / 4) return
    kept.set(etag, file)
    bytes += file.length
    for (const [oldest, old] of kept) {
      if (bytes <= maxBytes) break
      kept.delete(oldest)
      bytes -= old.length
    }
  }

  return {
    getOrRender(etag, render) {
      const hit = kept.get(etag)
      if (hit) {
        // Map order is the recency order: move the entry to the end.
        kept.delete(etag)
        kept.set(etag, hit)
        return Promise.resolve(hit)
      }
      const running = inFlight.get(etag)
      if (running) return running
      const rendering = render().then(
        (file) => {
          inFlight.delete(etag)
          keep(etag, file)
          return file
        },
        (error: unknown) => {
          inFlight.delete(etag)
          throw error
        },
      )
      inFlight.set(etag, rendering)
      return rendering
    },
  }
}
