import type { StoredImage } from './design.ts'

export interface ImageStore {
  /**
   * Stores an image under its hash (the SHA-256 of its bytes, so one hash means one content). Storing
   * the same image again is a no-op: it MUST NOT throw, also under concurrent calls, and changes nothing.
   */
  put(image: StoredImage): Promise<void>
  /** The image with this hash, its bytes a plain `Uint8Array` the caller may change; `null` when absent. */
  findByHash(hash: string): Promise<StoredImage | null>
}
