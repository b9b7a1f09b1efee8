import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createRenderCache } from '../../../core/files/render-cache.ts'

/**
 * Rendered files by strong ETag: bounded by bytes, least recently used out first.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */
describe('the render cache', () => {
  const renderer = () => {
    const calls: string[] = []
    return { calls, render: (etag: string, size: number) => async () => (calls.push(etag), new Uint8Array(size)) }
  }

  it('renders a tag once, keeps at most maxBytes, and forgets the least recently used first', async () => {
    const cache = createRenderCache({ maxBytes: 100 })
    const { calls, render } = renderer()
    await cache.getOrRender('"a"', render('"a"', 25))
    await cache.getOrRender('"b"', render('"b"', 25))
    await cache.getOrRender('"c"', render('"c"', 25))
    await cache.getOrRender('"a"', render('"a"', 25)) // a is now the most recent
    await cache.getOrRender('"d"', render('"d"', 25))
    await cache.getOrRender('"e"', render('"e"', 25)) // 125 bytes: b, the least recently used, goes
    assert.deepEqual(calls, ['"a"', '"b"', '"c"', '"d"', '"e"'])
    await cache.getOrRender('"a"', render('"a"', 25))
    await cache.getOrRender('"b"', render('"b"', 25))
    assert.deepEqual(calls.slice(5), ['"b"'], 'a was kept, b rendered again')
  })

  it('does not keep a file over a quarter of the bound, nor a failed rendering', async () => {
    const cache = createRenderCache({ maxBytes: 100 })
    const { calls, render } = renderer()
    await cache.getOrRender('"big"', render('"big"', 26))
    await cache.getOrRender('"big"', render('"big"', 26))
    assert.deepEqual(calls, ['"big"', '"big"'])
    await assert.rejects(
      cache.getOrRender('"x"', async () => Promise.reject(new Error('font missing'))),
      /font missing/,
    )
    assert.equal((await cache.getOrRender('"x"', render('"x"', 1))).length, 1, 'tried again')
  })
})
