import { createMemoryStorage } from '../../adapters/memory/index.ts'
import { storageSuite } from '../conformance/storage.suite.ts'

storageSuite({
  name: 'memory',
  open: async () => {
    const storage = createMemoryStorage()
    return { storage, close: () => storage.close() }
  },
})
