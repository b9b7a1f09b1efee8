import type { TemplateSnapshot } from './issuance.ts'

export interface SnapshotStore {
  /** Stores a template snapshot with a fresh id; returns the id. */
  insert(snapshot: Omit<TemplateSnapshot, 'id'>): Promise<number>
  findById(id: number): Promise<TemplateSnapshot | null>
}
