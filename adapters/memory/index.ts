/** @module clubcred/memory: the in-memory reference storage adapter. */
export { createMemoryStorage } from './storage.ts'
