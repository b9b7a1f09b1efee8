import { rowsAtOnce, type Database } from './database.ts'
import type { CsvUploadStore } from '../../core/ports/storage.ts'
import { CSV_UPLOAD_ROW_COLUMNS, csvFileParts, csvUploadRowValues, toCsvFile, toCsvUpload, toCsvUploadRow } from '../shared/csv-upload-rows.ts'
import { nextTurn } from '../../core/csv-uploads/file-digest.ts'
import { num } from '../shared/sql-values.ts'

export function createCsvUploadStore(db: Database): CsvUploadStore {
  const insertRows = rowsAtOnce(
    db,
    `INSERT INTO csv_upload_rows (${CSV_UPLOAD_ROW_COLUMNS}) VALUES`,
    '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    'ON CONFLICT DO NOTHING',
  )
  return {
    async claim(upload) {
      db.run(
        'INSERT INTO csv_uploads (id, club, key, achievement_id, mode, row_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (club, key) DO NOTHING',
        upload.id,
        upload.club,
        upload.key,
        upload.achievementId,
        upload.mode,
        upload.rowCount,
        upload.createdAt,
      )
      return toCsvUpload(db.get('SELECT * FROM csv_uploads WHERE club = ? AND key = ?', upload.club, upload.key)!)
    },
    async findById(club, id) {
      const row = db.get('SELECT * FROM csv_uploads WHERE id = ? AND club = ?', id, club)
      return row ? toCsvUpload(row) : null
    },
    async insertRows(rows) {
      insertRows.run(rows, (row) => [...csvUploadRowValues(row)])
    },
    async listRows(uploadId) {
      return db.all(`SELECT ${CSV_UPLOAD_ROW_COLUMNS} FROM csv_upload_rows WHERE upload_id = ? ORDER BY line`, uploadId).map(toCsvUploadRow)
    },
    async progress(uploadId) {
      // Each issued row's credential looked up by its issuance's key: a few thousand lookups at most.
      const row = db.get(
        `SELECT count(*) AS recorded, coalesce(sum(r.status = 'issued'), 0) AS issued,
           coalesce(sum(r.status = 'issued' AND EXISTS (SELECT 1 FROM issuances i JOIN credentials c ON c.issuance_seq = i.seq WHERE i.id = r.issuance_id)), 0) AS signed
         FROM csv_upload_rows AS r WHERE r.upload_id = ?`,
        uploadId,
      )
      return { recorded: num(row?.recorded), issued: num(row?.issued), signed: num(row?.signed) }
    },
    async putFile(file) {
      const inserted = db.run(
        'INSERT INTO csv_files (club, digest, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        file.club,
        file.digest,
        file.createdAt,
      )
      // Under one digest the text is the same: a file kept again only lives longer.
      if (inserted === 0) {
        db.run('UPDATE csv_files SET created_at = ? WHERE club = ? AND digest = ?', file.createdAt, file.club, file.digest)
        return
      }
      for (const [part, text] of csvFileParts(file.text).entries()) {
        db.run('INSERT INTO csv_file_parts (club, digest, part, text) VALUES (?, ?, ?, ?)', file.club, file.digest, part, text)
        // The statements are synchronous: other requests run between the parts (the unit stays open).
        await nextTurn()
      }
    },
    async findFile(club, digest) {
      const row = db.get('SELECT club, digest, created_at FROM csv_files WHERE club = ? AND digest = ?', club, digest)
      return row ? toCsvFile(row, db.all('SELECT text FROM csv_file_parts WHERE club = ? AND digest = ? ORDER BY part', club, digest)) : null
    },
    async deleteFile(club, digest) {
      return db.run('DELETE FROM csv_files WHERE club = ? AND digest = ?', club, digest) > 0
    },
    async purgeFiles(createdBefore) {
      return db.run('DELETE FROM csv_files WHERE created_at < ?', createdBefore)
    },
  }
}
