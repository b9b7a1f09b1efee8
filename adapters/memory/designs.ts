import type { DesignStore, ImageStore } from '../../core/ports/storage.ts'
import { type Journal, put } from './journal.ts'
import { copy, keysetPage } from './rows.ts'
import type { State } from './state.ts'

export function createDesignStore(state: State, journal: Journal): DesignStore {
  return {
    async insert(design) {
      const id = ++state.sequences.design
      const stored = { ...copy(design), id }
      put(journal, state.designs, id, stored)
      return copy(stored)
    },
    async findById(club, id) {
      const design = state.designs.get(id)
      return design && design.club === club ? copy(design) : null
    },
    async update(design) {
      const current = state.designs.get(design.id)
      if (!current || current.club !== design.club) return false
      put(journal, state.designs, design.id, { ...current, name: design.name, image: design.image, layout: copy(design.layout), updatedAt: design.updatedAt })
      return true
    },
    async list(club, { limit, beforeId }) {
      return keysetPage(
        [...state.designs.values()].filter((design) => design.club === club),
        beforeId,
        limit,
      )
    },
  }
}

export function createImageStore(state: State, journal: Journal): ImageStore {
  return {
    async put(image) {
      if (!state.images.has(image.hash)) put(journal, state.images, image.hash, copy(image))
    },
    async findByHash(hash) {
      const image = state.images.get(hash)
      return image ? copy(image) : null
    },
  }
}
