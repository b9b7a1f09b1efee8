import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { seedIssuances, seedTemplate } from './issuances.cases.ts'
import type { CsvFile, CsvUpload, CsvUploadRow } from '../../../core/csv-uploads/csv-upload.ts'

const NOW = 1_900_000_000_000

function anUpload(overrides: Partial<CsvUpload> = {}): CsvUpload {
  return {
    id: 'csv_0123456789abcdef01234567',
    club: 'chess',
    key: 'digest-of-the-confirmation',
    achievementId: 1,
    mode: 'none',
    rowCount: 3,
    createdAt: NOW,
    ...overrides,
  }
}

function aRow(overrides: Partial<CsvUploadRow> = {}): CsvUploadRow {
  return {
    uploadId: anUpload().id,
    line: 2,
    externalUserId: 'member-1',
    name: '김민준',
    email: 'kim@example.org',
    status: 'issued',
    issuanceId: 11,
    code: null,
    message: null,
    field: null,
    ...overrides,
  }
}

function aFile(overrides: Partial<CsvFile> = {}): CsvFile {
  return {
    club: 'chess',
    digest: 'a'.repeat(64),
    text: 'externalUserId,name,email\r\nm-1,"김, 민준",kim@example.org\n',
    createdAt: NOW,
    ...overrides,
  }
}

/** CsvUploadStore: core/ports/storage.ts. */
export function csvUploadCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('console CSV uploads', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const claim = (upload = anUpload()) => storage().transaction((tx) => tx.csvUploads.claim(upload))
    const withClub = (club = 'chess') => storage().transaction((tx) => tx.clubs.insert(aClub({ domain: club })))

    it('an upload round-trips as a plain object, found by id in its club only', async () => {
      await withClub()
      await withClub('go')
      assert.deepStrictEqual(await claim(), anUpload())
      const found = await storage().csvUploads.findById('chess', anUpload().id)
      assert.deepStrictEqual(found, anUpload())
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(await storage().csvUploads.findById('go', anUpload().id), null)
      assert.equal(await storage().csvUploads.findById('chess', 'csv_none'), null)
    })

    it('a second claim with the key returns the first upload, also when concurrent; another club may use the same key', async () => {
      await withClub()
      await withClub('go')
      const claims = await Promise.all([1, 2, 3].map((n) => claim(anUpload({ id: `csv_${n}`, createdAt: NOW + n }))))
      assert.equal(new Set(claims.map((upload) => upload.id)).size, 1)
      assert.deepStrictEqual(await claim(anUpload({ id: 'csv_later' })), claims[0])
      assert.equal((await claim(anUpload({ id: 'csv_go', club: 'go' }))).id, 'csv_go')
    })

    it('rows come back in line order as plain objects, and a line recorded again keeps its first outcome', async () => {
      await withClub()
      await claim()
      const rows = [
        aRow({
          line: 7,
          status: 'failed',
          issuanceId: null,
          code: 'invalid-email',
          message: 'The e-mail address is not valid.',
          field: 'email',
          externalUserId: null,
        }),
        aRow({ line: 2 }),
        aRow({ line: 3, status: 'skipped', issuanceId: 11, code: 'already-issued', message: 'The recipient already holds this achievement.' }),
      ]
      await storage().transaction((tx) => tx.csvUploads.insertRows(rows))
      await storage().transaction((tx) => tx.csvUploads.insertRows([aRow({ line: 2, status: 'failed', issuanceId: null }), aRow({ line: 9 })]))
      const listed = await storage().csvUploads.listRows(anUpload().id)
      assert.deepStrictEqual(listed, [rows[1], rows[2], rows[0], aRow({ line: 9 })])
      assert.equal(Object.getPrototypeOf(listed[0]), Object.prototype)
      assert.deepStrictEqual(await storage().csvUploads.listRows('csv_none'), [])
    })

    it('progress counts the rows recorded, those issued, and those whose issuance has its credential', async () => {
      const seed = await seedTemplate(storage())
      const [a, b, held] = await seedIssuances(storage(), seed, 3)
      await claim(anUpload({ achievementId: seed.achievementId }))
      assert.deepStrictEqual(await storage().csvUploads.progress(anUpload().id), { recorded: 0, issued: 0, signed: 0 })
      await storage().transaction((tx) =>
        tx.csvUploads.insertRows([
          aRow({ line: 2, issuanceId: a! }),
          aRow({ line: 3, issuanceId: b! }),
          aRow({ line: 4, status: 'skipped', issuanceId: held!, code: 'already-issued' }),
          aRow({ line: 5, status: 'failed', issuanceId: null, code: 'required' }),
        ]),
      )
      assert.deepStrictEqual(await storage().csvUploads.progress(anUpload().id), { recorded: 4, issued: 2, signed: 0 })
      const credential = (issuanceId: number, n: number) => ({
        id: `00000000-0000-4000-8000-00000000000${n}`,
        issuanceId,
        club: 'chess',
        jwt: 'a.b.c',
        issuedAt: NOW,
        validUntil: null,
        statusListId: 1,
        statusListIndex: n,
        proof: { state: 'pending' as const },
      })
      // The held issuance's credential does not count: that row issued nothing.
      await storage().transaction((tx) => tx.credentials.insertMany([credential(a!, 1), credential(held!, 2)]))
      assert.deepStrictEqual(await storage().csvUploads.progress(anUpload().id), { recorded: 4, issued: 2, signed: 1 })
    })

    it('a previewed file round-trips as a plain object, found by its digest in its club only', async () => {
      await withClub()
      await withClub('go')
      await storage().transaction((tx) => tx.csvUploads.putFile(aFile()))
      const found = await storage().csvUploads.findFile('chess', aFile().digest)
      assert.deepStrictEqual(found, aFile())
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(await storage().csvUploads.findFile('go', aFile().digest), null, 'another club cannot reach it by its digest')
      assert.equal(await storage().csvUploads.findFile('chess', 'b'.repeat(64)), null)
    })

    it('a file of 16 MiB round-trips whole, characters outside the BMP included wherever an adapter may split it', async () => {
      await withClub()
      const text = 'externalUserId,name,email\n' + `m-12,${'가'.repeat(4_000_000)}${'😀'.repeat(600_000)},kim@example.org\n`
      await storage().transaction((tx) => tx.csvUploads.putFile(aFile({ text })))
      const found = await storage().csvUploads.findFile('chess', aFile().digest)
      assert.equal(found?.text.length, text.length)
      assert.ok(found?.text === text)
    })

    it('the same file kept again, also concurrently, is one file with the later time; another club keeps its own', async () => {
      await withClub()
      await withClub('go')
      await Promise.all([1, 2, 3].map((n) => storage().transaction((tx) => tx.csvUploads.putFile(aFile({ createdAt: NOW + n })))))
      await storage().transaction((tx) => tx.csvUploads.putFile(aFile({ createdAt: NOW + 10 })))
      await storage().transaction((tx) => tx.csvUploads.putFile(aFile({ club: 'go' })))
      assert.deepStrictEqual(await storage().csvUploads.findFile('chess', aFile().digest), aFile({ createdAt: NOW + 10 }))
      assert.deepStrictEqual(await storage().csvUploads.findFile('go', aFile().digest), aFile({ club: 'go' }))
    })

    it('deleting a file removes the club’s only, and purging removes the files kept before the time, of every club', async () => {
      await withClub()
      await withClub('go')
      await storage().transaction(async (tx) => {
        await tx.csvUploads.putFile(aFile())
        await tx.csvUploads.putFile(aFile({ club: 'go' }))
        await tx.csvUploads.putFile(aFile({ digest: 'b'.repeat(64), createdAt: NOW + 1 }))
        await tx.csvUploads.putFile(aFile({ digest: 'c'.repeat(64), createdAt: NOW + 2 }))
      })
      assert.equal(await storage().transaction((tx) => tx.csvUploads.deleteFile('chess', aFile().digest)), true)
      assert.equal(await storage().transaction((tx) => tx.csvUploads.deleteFile('chess', aFile().digest)), false)
      assert.deepStrictEqual(await storage().csvUploads.findFile('go', aFile().digest), aFile({ club: 'go' }))
      assert.equal(await storage().transaction((tx) => tx.csvUploads.purgeFiles(NOW + 2)), 2)
      assert.equal(await storage().csvUploads.findFile('go', aFile().digest), null)
      assert.equal(await storage().csvUploads.findFile('chess', 'b'.repeat(64)), null)
      assert.deepStrictEqual(await storage().csvUploads.findFile('chess', 'c'.repeat(64)), aFile({ digest: 'c'.repeat(64), createdAt: NOW + 2 }))
    })

    it('a file kept in a unit that throws is not kept', async () => {
      await withClub()
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.csvUploads.putFile(aFile())
          throw new Error('undone')
        }),
        /undone/,
      )
      assert.equal(await storage().csvUploads.findFile('chess', aFile().digest), null)
    })
  })
}
