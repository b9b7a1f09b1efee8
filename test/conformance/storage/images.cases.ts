import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { StoredImage } from '../../../core/designs/design.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

function anImage(overrides: Partial<StoredImage> = {}): StoredImage {
  return { hash: 'c'.repeat(64), mediaType: 'image/png', bytes: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255]), ...overrides }
}

/** ImageStore: core/ports/storage.ts. */
export function imageCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('images', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const put = (...images: StoredImage[]) =>
      storage().transaction(async (tx) => {
        for (const image of images) await tx.images.put(image)
      })

    it('an image read back by hash equals the image put, bytes as a plain Uint8Array; an absent hash is null', async () => {
      const svg = anImage({ hash: 'd'.repeat(64), mediaType: 'image/svg+xml', bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>') })
      await put(anImage(), svg)
      const found = await storage().images.findByHash('c'.repeat(64))
      assert.deepStrictEqual(found, anImage())
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(Object.getPrototypeOf(found!.bytes), Uint8Array.prototype)
      assert.deepStrictEqual(await storage().images.findByHash('d'.repeat(64)), svg)
      assert.equal(await storage().images.findByHash('e'.repeat(64)), null)
    })

    it('an empty image round-trips', async () => {
      await put(anImage({ bytes: new Uint8Array() }))
      assert.deepStrictEqual(await storage().images.findByHash('c'.repeat(64)), anImage({ bytes: new Uint8Array() }))
    })

    it('putting the same bytes again is a no-op: it does not throw and changes nothing, in one unit or in two', async () => {
      await put(anImage())
      await put(anImage())
      await put(anImage(), anImage())
      assert.deepStrictEqual(await storage().images.findByHash('c'.repeat(64)), anImage())
    })

    it("the stored bytes are a copy: changing the caller's array after put, or the one read back, changes nothing stored", async () => {
      const image = anImage()
      await put(image)
      image.bytes[0] = 0
      const read = await storage().images.findByHash('c'.repeat(64))
      read!.bytes[1] = 0
      assert.deepStrictEqual(await storage().images.findByHash('c'.repeat(64)), anImage())
    })

    it('a put in a rolled-back unit leaves nothing; a repeat put rolled back keeps the first', async () => {
      await put(anImage())
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.images.put(anImage())
          await tx.images.put(anImage({ hash: 'f'.repeat(64) }))
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.equal(await storage().images.findByHash('f'.repeat(64)), null)
      assert.deepStrictEqual(await storage().images.findByHash('c'.repeat(64)), anImage())
    })

    it('concurrent puts of the same bytes all succeed and store one image', async () => {
      await Promise.all(Array.from({ length: 8 }, () => put(anImage())))
      assert.deepStrictEqual(await storage().images.findByHash('c'.repeat(64)), anImage())
    })
  })
}
