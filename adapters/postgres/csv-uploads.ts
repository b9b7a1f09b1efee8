import { chunksOf, type Database } from './database.ts'
import type { CsvUploadStore } from '../../core/ports/storage.ts'
import { csvFileParts, toCsvFile, toCsvUpload, toCsvUploadRow } from '../shared/csv-upload-rows.ts'
import { num } from '../shared/sql-values.ts'

export function createCsvUploadStore({ sql }: Database): CsvUploadStore {
  return {
    async claim(upload) {
      await sql`INSERT INTO csv_uploads (id, club, key, achievement_id, mode, row_count, created_at)
        VALUES (${upload.id}, ${upload.club}, ${upload.key}, ${upload.achievementId}, ${upload.mode}, ${upload.rowCount}, ${upload.createdAt})
        ON CONFLICT (club, key) DO NOTHING`
      const [row] = await sql`SELECT * FROM csv_uploads WHERE club = ${upload.club} AND key = ${upload.key}`
      return toCsvUpload(row!)
    },
    async findById(club, id) {
      const [row] = await sql`SELECT * FROM csv_uploads WHERE id = ${id} AND club = ${club}`
      return row ? toCsvUpload(row) : null
    },
    async insertRows(rows) {
      for (const chunk of chunksOf(rows)) {
        const values = chunk.map((row) => ({
          upload_id: row.uploadId,
          line: row.line,
          external_user_id: row.externalUserId,
          name: row.name,
          email: row.email,
          status: row.status,
          issuance_id: row.issuanceId,
          code: row.code,
          message: row.message,
          field: row.field,
        }))
        await sql`INSERT INTO csv_upload_rows ${sql(values, Object.keys(values[0]!) as (keyof (typeof values)[number])[])} ON CONFLICT DO NOTHING`
      }
    },
    async listRows(uploadId) {
      return (
        await sql`SELECT upload_id, line, external_user_id, name, email, status, issuance_id, code, message, field
          FROM csv_upload_rows WHERE upload_id = ${uploadId} ORDER BY line`
      ).map(toCsvUploadRow)
    },
    async progress(uploadId) {
      const [row] = await sql`SELECT count(*) AS recorded, count(*) FILTER (WHERE r.status = 'issued') AS issued,
          count(c.issuance_id) FILTER (WHERE r.status = 'issued') AS signed
        FROM csv_upload_rows AS r LEFT JOIN credentials AS c ON c.issuance_id = r.issuance_id
        WHERE r.upload_id = ${uploadId}`
      return { recorded: num(row?.recorded), issued: num(row?.issued), signed: num(row?.signed) }
    },
    async putFile(file) {
      // A concurrent unit keeping the same file waits here for the first to end, then inserts nothing.
      const inserted =
        await sql`INSERT INTO csv_files (club, digest, created_at) VALUES (${file.club}, ${file.digest}, ${file.createdAt}) ON CONFLICT DO NOTHING`
      // Under one digest the text is the same: a file kept again only lives longer.
      if (inserted.count === 0) {
        await sql`UPDATE csv_files SET created_at = ${file.createdAt} WHERE club = ${file.club} AND digest = ${file.digest}`
        return
      }
      for (const [part, text] of csvFileParts(file.text).entries()) {
        await sql`INSERT INTO csv_file_parts (club, digest, part, text) VALUES (${file.club}, ${file.digest}, ${part}, ${text})`
      }
    },
    async findFile(club, digest) {
      const [row] = await sql`SELECT club, digest, created_at FROM csv_files WHERE club = ${club} AND digest = ${digest}`
      return row ? toCsvFile(row, await sql`SELECT text FROM csv_file_parts WHERE club = ${club} AND digest = ${digest} ORDER BY part`) : null
    },
    async deleteFile(club, digest) {
      return (await sql`DELETE FROM csv_files WHERE club = ${club} AND digest = ${digest}`).count > 0
    },
    async purgeFiles(createdBefore) {
      return (await sql`DELETE FROM csv_files WHERE created_at < ${createdBefore}`).count
    },
  }
}
