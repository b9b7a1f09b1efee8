import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { DEFAULT_LAYOUT, type Design, type NewDesign, type StoredImage } from '../../../core/designs/design.ts'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

const BADGE_IMAGE: StoredImage = { hash: 'a'.repeat(64), mediaType: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]) }
const OTHER_IMAGE: StoredImage = { hash: 'b'.repeat(64), mediaType: 'image/svg+xml', bytes: new Uint8Array([60, 115, 118, 103]) }

function aBadgeDesign(overrides: Partial<NewDesign> = {}): NewDesign {
  return {
    club: 'chess',
    kind: 'badge',
    name: 'Gold badge',
    image: BADGE_IMAGE.hash,
    layout: null,
    createdAt: 1_900_000_000_000,
    updatedAt: 1_900_000_000_000,
    ...overrides,
  }
}

function aCertificateDesign(overrides: Partial<NewDesign> = {}): NewDesign {
  return {
    club: 'chess',
    kind: 'certificate',
    name: 'Diploma',
    image: null,
    layout: { ...DEFAULT_LAYOUT, show: { ...DEFAULT_LAYOUT.show, qrCode: false }, logoImage: OTHER_IMAGE.hash },
    createdAt: 1_900_000_000_000,
    updatedAt: 1_900_000_000_000,
    ...overrides,
  }
}

/** DesignStore: core/ports/storage.ts. */
export function designCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('designs', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const withClubsAndImages = () =>
      storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        await tx.clubs.insert(aClub({ domain: 'go' }))
        await tx.images.put(BADGE_IMAGE)
        await tx.images.put(OTHER_IMAGE)
      })
    const insert = (...designs: NewDesign[]) =>
      storage().transaction(async (tx) => {
        const stored: Design[] = []
        for (const design of designs) stored.push(await tx.designs.insert(design))
        return stored
      })

    it('insert returns the design with its id; read back it equals it, as a plain object, badge and certificate alike', async () => {
      await withClubsAndImages()
      const [badge, certificate] = await insert(aBadgeDesign(), aCertificateDesign())
      assert.deepStrictEqual(badge, { ...aBadgeDesign(), id: badge!.id })
      assert.deepStrictEqual(certificate, { ...aCertificateDesign(), id: certificate!.id })
      const found = await storage().designs.findById('chess', certificate!.id)
      assert.deepStrictEqual(found, certificate)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(Object.getPrototypeOf(found!.layout), Object.prototype)
      assert.deepStrictEqual(await storage().designs.findById('chess', badge!.id), badge)
    })

    it('ids are fresh and increasing, also across clubs', async () => {
      await withClubsAndImages()
      const stored = await insert(aBadgeDesign(), aBadgeDesign({ club: 'go' }), aCertificateDesign())
      const ids = stored.map((design) => design.id)
      assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids ${ids.join(', ')} increase`)
      const later = await insert(aBadgeDesign())
      assert.ok(later[0]!.id > ids[2]!)
    })

    it('findById is null for an absent id and for a design of another club', async () => {
      await withClubsAndImages()
      const [design] = await insert(aBadgeDesign())
      assert.equal(await storage().designs.findById('chess', design!.id + 1000), null)
      assert.equal(await storage().designs.findById('go', design!.id), null)
      assert.equal(await storage().designs.findById('nowhere', design!.id), null)
    })

    it('update writes name, image, layout and updatedAt, and nothing else; the result is read back', async () => {
      await withClubsAndImages()
      const [badge, certificate] = await insert(aBadgeDesign(), aCertificateDesign())
      const changedBadge: Design = { ...badge!, name: 'Silver badge', image: OTHER_IMAGE.hash, updatedAt: 1_900_000_000_999 }
      const changedCertificate: Design = { ...certificate!, layout: { ...DEFAULT_LAYOUT, orientation: 'portrait' }, updatedAt: 1_900_000_001_000 }
      assert.equal(await storage().transaction((tx) => tx.designs.update(changedBadge)), true)
      assert.equal(await storage().transaction((tx) => tx.designs.update({ ...changedCertificate, kind: 'badge', createdAt: 5 })), true)
      assert.deepStrictEqual(await storage().designs.findById('chess', badge!.id), changedBadge)
      assert.deepStrictEqual(await storage().designs.findById('chess', certificate!.id), changedCertificate)
    })

    it('update returns false for an absent design and for a design of another club, and changes nothing', async () => {
      await withClubsAndImages()
      const [design] = await insert(aBadgeDesign())
      assert.equal(await storage().transaction((tx) => tx.designs.update({ ...design!, id: design!.id + 1000, name: 'x' })), false)
      assert.equal(await storage().transaction((tx) => tx.designs.update({ ...design!, club: 'go', name: 'x' })), false)
      assert.deepStrictEqual(await storage().designs.findById('chess', design!.id), design)
    })

    it("list gives only the club's designs, highest id first, at most limit; beforeId continues strictly below; [] when none", async () => {
      await withClubsAndImages()
      const stored = await insert(
        aBadgeDesign({ name: 'd1' }),
        aBadgeDesign({ club: 'go', name: 'g1' }),
        aCertificateDesign({ name: 'd2' }),
        aBadgeDesign({ name: 'd3' }),
        aBadgeDesign({ name: 'd4' }),
      )
      const chess = stored.filter((design) => design.club === 'chess').reverse()
      const first = await storage().designs.list('chess', { limit: 2, beforeId: null })
      assert.deepStrictEqual(first, chess.slice(0, 2))
      const second = await storage().designs.list('chess', { limit: 2, beforeId: first.at(-1)!.id })
      assert.deepStrictEqual(second, chess.slice(2, 4))
      assert.deepStrictEqual(await storage().designs.list('chess', { limit: 2, beforeId: second.at(-1)!.id }), [])
      assert.deepStrictEqual(await storage().designs.list('chess', { limit: 100, beforeId: null }), chess)
      assert.deepStrictEqual(
        await storage().designs.list('go', { limit: 100, beforeId: null }),
        stored.filter((design) => design.club === 'go'),
      )
      assert.deepStrictEqual(await storage().designs.list('nowhere', { limit: 100, beforeId: null }), [])
    })

    it('a cursor stays valid when designs are added after it was handed out', async () => {
      await withClubsAndImages()
      const stored = await insert(aBadgeDesign({ name: 'd1' }), aBadgeDesign({ name: 'd2' }), aBadgeDesign({ name: 'd3' }))
      const first = await storage().designs.list('chess', { limit: 1, beforeId: null })
      await insert(aBadgeDesign({ name: 'd4' }))
      assert.deepStrictEqual(await storage().designs.list('chess', { limit: 5, beforeId: first[0]!.id }), [stored[1], stored[0]])
    })

    it('inserts and updates in a rolled-back unit leave nothing', async () => {
      await withClubsAndImages()
      const [kept] = await insert(aBadgeDesign())
      let rolledBack: Design | undefined
      await assert.rejects(
        storage().transaction(async (tx) => {
          rolledBack = await tx.designs.insert(aCertificateDesign())
          assert.equal(await tx.designs.update({ ...kept!, name: 'renamed', updatedAt: 1_900_000_009_000 }), true)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.equal(await storage().designs.findById('chess', rolledBack!.id), null)
      assert.deepStrictEqual(await storage().designs.list('chess', { limit: 100, beforeId: null }), [kept])
    })
  })
}
