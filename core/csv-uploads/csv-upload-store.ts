import type { CsvFile, CsvUpload, CsvUploadProgress, CsvUploadRow } from './csv-upload.ts'

/** The staff console's CSV uploads and each row's outcome (docs/admin-console.md § Issuing by CSV). */
export interface CsvUploadStore {
  /**
   * Inserts the upload unless the club has one with its `key`; returns the club's upload with that key,
   * this one or the earlier one. Concurrent calls with one club and key MUST insert one upload and all
   * return it.
   */
  claim(upload: CsvUpload): Promise<CsvUpload>
  /** The club's upload with this id, or `null` (another club's id is `null` too). */
  findById(club: string, id: string): Promise<CsvUpload | null>
  /**
   * Records rows' outcomes. A row (upload, line) recorded already is kept as it was, also under
   * concurrent calls: a retried chunk records nothing twice.
   */
  insertRows(rows: CsvUploadRow[]): Promise<void>
  /** The upload's rows in line order; `[]` when none. */
  listRows(uploadId: string): Promise<CsvUploadRow[]>
  /** Rows recorded, issued, and issued whose issuance has its credential (signed); zeros when none. */
  progress(uploadId: string): Promise<CsvUploadProgress>
  /**
   * Keeps a previewed file under its club and digest. A file kept already under them is kept with this
   * `createdAt` (previewed again, it lives a day from now); concurrent calls MUST NOT throw.
   */
  putFile(file: CsvFile): Promise<void>
  /** The club's file with this digest, or `null` (another club's file under the same digest too). */
  findFile(club: string, digest: string): Promise<CsvFile | null>
  /** Removes the club's file with this digest; `false` when there was none. */
  deleteFile(club: string, digest: string): Promise<boolean>
  /** Removes every file kept before `createdBefore` (strictly), of every club; returns how many. */
  purgeFiles(createdBefore: number): Promise<number>
}
