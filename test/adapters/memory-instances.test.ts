import assert from 'node:assert/strict'
import { it } from 'node:test'
import { createMemoryStorage } from '../../adapters/memory/index.ts'

// docs/architecture.md § Layers: module-global adapter state would keep tests from running on parallel fresh stores.
it('two memory storages share nothing: what one stores, the other does not see', async () => {
  const first = createMemoryStorage()
  const second = createMemoryStorage()
  const club = { domain: 'chess', name: 'Chess Club', canIssue: true, issuerVerified: false, createdAt: 1_900_000_000_000 }
  await first.transaction((tx) => tx.clubs.insert(club))
  await second.transaction((tx) => tx.designs.insert({ club: 'go', kind: 'badge', name: 'b', image: null, layout: null, createdAt: 1, updatedAt: 1 }))
  assert.deepStrictEqual(await first.clubs.findByDomain('chess'), club)
  assert.equal(await second.clubs.findByDomain('chess'), null)
  assert.equal(await second.clubs.count(), 0)
  assert.deepStrictEqual(await first.designs.list('go', { limit: 10, beforeId: null }), [])
  await second.transaction((tx) => tx.clubs.insert(club))
  await Promise.all([first.close(), second.close()])
})
