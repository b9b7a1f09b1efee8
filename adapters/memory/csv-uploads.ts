import type { CsvUploadRow, CsvUploadStore } from '../../core/ports/storage.ts'
import { type Journal, put, remove } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

export function createCsvUploadStore(state: State, journal: Journal): CsvUploadStore {
  const byKey = (club: string, key: string) => [...state.csvUploads.values()].find((upload) => upload.club === club && upload.key === key)
  const fileKey = (club: string, digest: string) => `${club} ${digest}`
  const rowsOf = (uploadId: string): CsvUploadRow[] => [...(state.csvUploadRows.get(uploadId)?.values() ?? [])]
  return {
    async claim(upload) {
      const held = byKey(upload.club, upload.key)
      if (held) return copy(held)
      put(journal, state.csvUploads, upload.id, copy(upload))
      return copy(upload)
    },
    async findById(club, id) {
      const upload = state.csvUploads.get(id)
      return upload && upload.club === club ? copy(upload) : null
    },
    async insertRows(rows) {
      for (const row of rows) {
        let ofUpload = state.csvUploadRows.get(row.uploadId)
        if (!ofUpload) put(journal, state.csvUploadRows, row.uploadId, (ofUpload = new Map()))
        if (!ofUpload.has(row.line)) put(journal, ofUpload, row.line, copy(row))
      }
    },
    async listRows(uploadId) {
      return rowsOf(uploadId)
        .sort((a, b) => a.line - b.line)
        .map(copy)
    },
    async progress(uploadId) {
      const rows = rowsOf(uploadId)
      const issued = rows.filter((row) => row.status === 'issued')
      const signed = issued.filter((row) => state.credentialByIssuance.has(row.issuanceId!)).length
      return { recorded: rows.length, issued: issued.length, signed }
    },
    async putFile(file) {
      put(journal, state.csvFiles, fileKey(file.club, file.digest), copy(file))
    },
    async findFile(club, digest) {
      const file = state.csvFiles.get(fileKey(club, digest))
      return file ? copy(file) : null
    },
    async deleteFile(club, digest) {
      return remove(journal, state.csvFiles, fileKey(club, digest))
    },
    async purgeFiles(createdBefore) {
      let purged = 0
      for (const [key, file] of state.csvFiles) if (file.createdAt < createdBefore && remove(journal, state.csvFiles, key)) purged++
      return purged
    },
  }
}
