import { clubPage, type Database } from './database.ts'
import type { ImageType } from '../../core/designs/design.ts'
import type { DesignStore, ImageStore } from '../../core/ports/storage.ts'
import { toDesign } from '../shared/rows.ts'
import { str } from '../shared/sql-values.ts'

export function createDesignStore(db: Database): DesignStore {
  return {
    async insert(design) {
      return toDesign(
        db.get(
          'INSERT INTO designs (club, kind, name, image, layout, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *',
          design.club,
          design.kind,
          design.name,
          design.image,
          design.layout ? JSON.stringify(design.layout) : null,
          design.createdAt,
          design.updatedAt,
        )!,
      )
    },
    async findById(club, id) {
      const row = db.get('SELECT * FROM designs WHERE club = ? AND id = ?', club, id)
      return row ? toDesign(row) : null
    },
    async update(design) {
      return (
        db.run(
          'UPDATE designs SET name = ?, image = ?, layout = ?, updated_at = ? WHERE club = ? AND id = ?',
          design.name,
          design.image,
          design.layout ? JSON.stringify(design.layout) : null,
          design.updatedAt,
          design.club,
          design.id,
        ) > 0
      )
    },
    async list(club, page) {
      const rows = clubPage(db, 'designs', club, page)
      return rows.map(toDesign)
    },
  }
}

export function createImageStore(db: Database): ImageStore {
  return {
    async put(image) {
      db.run('INSERT INTO images (hash, media_type, bytes) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING', image.hash, image.mediaType, image.bytes)
    },
    async findByHash(hash) {
      const row = db.get('SELECT * FROM images WHERE hash = ?', hash)
      if (!row) return null
      const bytes = row.bytes as Uint8Array
      // Drivers hand BLOBs over as Buffer or Uint8Array: return a plain Uint8Array either way.
      return {
        hash: str(row.hash),
        mediaType: str(row.media_type) as ImageType,
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice(),
      }
    },
  }
}
