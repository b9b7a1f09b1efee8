/**
 * The SQLite-to-PostgreSQL copy (`storage copy --to`, server/copy-sqlite-to-postgres.ts) copies each
 * table after the tables it points at, whatever order SQLite created them in: migration 0011 rebuilds
 * the issuances after the signing jobs and credentials that point at them, so a copy in creation order
 * broke PostgreSQL's foreign keys as soon as a job was waiting.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import postgres from 'postgres'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { createPostgresStorage, DEFAULT_POSTGRES_SCHEMA } from '../../adapters/postgres/index.ts'
import { copySqliteToPostgres } from '../../server/copy-sqlite-to-postgres.ts'
import { seedIssuances, seedTemplate } from '../conformance/storage/issuances.cases.ts'
import { startPostgres, type TestPostgres } from '../support/postgres.ts'
import { openSqliteFile, tempDir } from '../support/temp-sqlite.ts'

describe('copy from SQLite into PostgreSQL', { timeout: 60_000 }, () => {
  let server: TestPostgres
  const dir = tempDir()
  before(async () => {
    server = await startPostgres()
  })
  after(async () => {
    await server?.stop()
    dir.remove()
  })

  it('copies a deployment with a signing job waiting and a credential stored: parents first, every row', async () => {
    const file = join(dir.path, 'clubcred.db')
    const sqlite = openSqliteFile(file)
    const seed = await seedTemplate(sqlite)
    const [waiting, signed] = await seedIssuances(sqlite, seed, 2)
    await sqlite.transaction(async (tx) => {
      await tx.signingJobs.enqueueMany([{ issuanceId: waiting!, club: 'chess' }])
      await tx.credentials.insertMany([
        {
          id: '0190c3a8-7b00-7abc-8def-0123456789ab',
          issuanceId: signed!,
          club: 'chess',
          jwt: 'h.p.s',
          issuedAt: 1_900_000_000_000,
          validUntil: null,
          statusListId: 1,
          statusListIndex: 7,
          proof: { state: 'pending' },
        },
      ])
      // A console CSV upload whose one row got the signed issuance.
      const upload = {
        id: 'csv_1',
        club: 'chess',
        key: 'k',
        achievementId: seed.achievementId,
        mode: 'none' as const,
        rowCount: 1,
        createdAt: 1_900_000_000_000,
      }
      await tx.csvUploads.claim(upload)
      await tx.csvUploads.insertRows([
        {
          uploadId: 'csv_1',
          line: 2,
          externalUserId: null,
          name: 'N',
          email: 'n@example.org',
          status: 'issued',
          issuanceId: signed!,
          code: null,
          message: null,
          field: null,
        },
      ])
    })
    await sqlite.close()

    const url = await server.newDatabase()
    await (await createPostgresStorage({ url })).close()
    const source = betterSqlite3Driver(file)
    const sql = postgres(url, { max: 1, onnotice: () => {} })
    try {
      const report = await copySqliteToPostgres(source, sql, DEFAULT_POSTGRES_SCHEMA)
      const rows = Object.fromEntries(report.tables.map(({ table, target }) => [table, target]))
      assert.equal(rows.issuances, 2)
      assert.equal(rows.signing_jobs, 1)
      assert.equal(rows.credentials, 1)
      assert.deepStrictEqual([rows.csv_uploads, rows.csv_upload_rows], [1, 1])
    } finally {
      source.close()
      await sql.end()
    }

    const copied = await createPostgresStorage({ url })
    try {
      assert.deepStrictEqual(
        (await copied.transaction((tx) => tx.signingJobs.claim(1_900_000_000_000, 60_000, 10))).map((job) => job.issuanceId),
        [waiting],
      )
      assert.equal((await copied.credentials.findByIssuance(signed!))?.statusListIndex, 7)
      assert.deepStrictEqual(await copied.csvUploads.progress('csv_1'), { recorded: 1, issued: 1, signed: 1 })
    } finally {
      await copied.close()
    }
  })
})
