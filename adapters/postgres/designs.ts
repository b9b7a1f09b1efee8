import { jsonOrNull, type Database } from './database.ts'
import type { ImageType } from '../../core/designs/design.ts'
import type { DesignStore, ImageStore } from '../../core/ports/storage.ts'
import { toDesign } from '../shared/rows.ts'
import { str } from '../shared/sql-values.ts'

export function createDesignStore({ sql }: Database): DesignStore {
  return {
    async insert(design) {
      const [row] = await sql`INSERT INTO designs (club, kind, name, image, layout, created_at, updated_at)
        VALUES (${design.club}, ${design.kind}, ${design.name}, ${design.image}, ${jsonOrNull(design.layout)}, ${design.createdAt}, ${design.updatedAt})
        RETURNING *`
      return toDesign(row!)
    },
    async findById(club, id) {
      const [row] = await sql`SELECT * FROM designs WHERE club = ${club} AND id = ${id}`
      return row ? toDesign(row) : null
    },
    async update(design) {
      const result = await sql`UPDATE designs SET name = ${design.name}, image = ${design.image}, layout = ${jsonOrNull(design.layout)},
          updated_at = ${design.updatedAt}
        WHERE club = ${design.club} AND id = ${design.id}`
      return result.count > 0
    },
    async list(club, { limit, beforeId }) {
      const rows =
        beforeId === null
          ? await sql`SELECT * FROM designs WHERE club = ${club} ORDER BY id DESC LIMIT ${limit}`
          : await sql`SELECT * FROM designs WHERE club = ${club} AND id < ${beforeId} ORDER BY id DESC LIMIT ${limit}`
      return rows.map(toDesign)
    },
  }
}

export function createImageStore({ sql }: Database): ImageStore {
  return {
    async put(image) {
      await sql`INSERT INTO images (hash, media_type, bytes) VALUES (${image.hash}, ${image.mediaType}, ${image.bytes}) ON CONFLICT (hash) DO NOTHING`
    },
    async findByHash(hash) {
      const [row] = await sql`SELECT * FROM images WHERE hash = ${hash}`
      if (!row) return null
      const bytes = row.bytes as Uint8Array
      // postgres.js hands bytea over as a Buffer: return a plain Uint8Array, a copy the caller may change.
      return {
        hash: str(row.hash),
        mediaType: str(row.media_type) as ImageType,
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice(),
      }
    },
  }
}
