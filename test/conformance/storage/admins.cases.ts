import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import type { Admin } from '../../../core/admins/admin.ts'
import type { AdminSession } from '../../../core/admins/admin-session.ts'

const NOW = 1_900_000_000_000
const WINDOW = 900_000

function anAdmin(overrides: Partial<Admin> = {}): Admin {
  return {
    id: 'adm_0123456789abcdef01234567',
    club: 'chess',
    email: 'staff@chess.example',
    name: 'Staff',
    passwordHash: null,
    setupTokenHash: 'sha256$setup-token-hash',
    setupExpiresAt: NOW + 86_400_000,
    createdAt: NOW,
    ...overrides,
  }
}

function aSession(overrides: Partial<AdminSession> = {}): AdminSession {
  return { idHash: 'sha256$session-one', adminId: anAdmin().id, club: 'chess', createdAt: NOW, lastSeenAt: NOW, ...overrides }
}

/** AdminStore and AdminSessionStore: core/ports/storage.ts. */
export function adminCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('console admins and sessions', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const withAdmin = (admin = anAdmin()) =>
      storage().transaction(async (tx) => {
        if (!(await tx.clubs.findByDomain(admin.club))) await tx.clubs.insert(aClub({ domain: admin.club }))
        await tx.admins.insert(admin)
      })

    it('an admin round-trips as a plain object, found by id, e-mail and setup token hash', async () => {
      await withAdmin()
      for (const found of [
        await storage().admins.findById(anAdmin().id),
        await storage().admins.findByEmail('staff@chess.example'),
        await storage().admins.findBySetupTokenHash('sha256$setup-token-hash'),
      ]) {
        assert.deepStrictEqual(found, anAdmin())
        assert.equal(Object.getPrototypeOf(found), Object.prototype)
      }
      assert.equal(await storage().admins.findByEmail('other@chess.example'), null)
      assert.equal(await storage().admins.findById('adm_none'), null)
    })

    it('an e-mail is unique across clubs, and an id is unique: both StorageConflict', async () => {
      await withAdmin()
      await storage().transaction((tx) => tx.clubs.insert(aClub({ domain: 'go' })))
      await assert.rejects(withAdmin(anAdmin({ id: 'adm_other', club: 'go', setupTokenHash: null })), StorageConflict)
      await assert.rejects(withAdmin(anAdmin({ email: 'second@chess.example', setupTokenHash: null })), StorageConflict)
      assert.deepStrictEqual(
        (await storage().admins.listByClub('chess')).map((admin) => admin.email),
        ['staff@chess.example'],
      )
    })

    it('listByClub orders by e-mail and holds only that club', async () => {
      await withAdmin(anAdmin({ id: 'adm_b', email: 'b@chess.example', setupTokenHash: 'sha256$b' }))
      await withAdmin(anAdmin({ id: 'adm_a', email: 'a@chess.example', setupTokenHash: 'sha256$a' }))
      await withAdmin(anAdmin({ id: 'adm_c', club: 'go', email: 'c@go.example', setupTokenHash: 'sha256$c' }))
      assert.deepStrictEqual(
        (await storage().admins.listByClub('chess')).map((admin) => admin.id),
        ['adm_a', 'adm_b'],
      )
      assert.deepStrictEqual(await storage().admins.listByClub('none'), [])
    })

    it('replacePasswordHash replaces the hash only while it is the one named', async () => {
      await withAdmin(anAdmin({ passwordHash: '$scrypt$old', setupTokenHash: null, setupExpiresAt: null }))
      const id = anAdmin().id
      assert.equal(await storage().transaction((tx) => tx.admins.replacePasswordHash(id, '$scrypt$other', '$scrypt$new')), false)
      assert.equal((await storage().admins.findById(id))?.passwordHash, '$scrypt$old')
      assert.equal(await storage().transaction((tx) => tx.admins.replacePasswordHash(id, '$scrypt$old', '$scrypt$new')), true)
      assert.equal((await storage().admins.findById(id))?.passwordHash, '$scrypt$new')
      assert.equal(await storage().transaction((tx) => tx.admins.replacePasswordHash(id, '$scrypt$old', '$scrypt$newer')), false)
      assert.equal(await storage().transaction((tx) => tx.admins.replacePasswordHash('no-such-admin', '$scrypt$new', '$scrypt$x')), false)
    })

    it('setPassword works once for the token it names; resetSetup replaces the token and clears the password', async () => {
      await withAdmin()
      const id = anAdmin().id
      assert.equal(await storage().transaction((tx) => tx.admins.setPassword(id, 'sha256$wrong', '$scrypt$x')), false)
      assert.equal(await storage().transaction((tx) => tx.admins.setPassword(id, 'sha256$setup-token-hash', '$scrypt$x')), true)
      assert.equal(await storage().transaction((tx) => tx.admins.setPassword(id, 'sha256$setup-token-hash', '$scrypt$y')), false)
      assert.deepStrictEqual(await storage().admins.findById(id), anAdmin({ passwordHash: '$scrypt$x', setupTokenHash: null, setupExpiresAt: null }))
      assert.equal(await storage().admins.findBySetupTokenHash('sha256$setup-token-hash'), null)
      assert.equal(await storage().transaction((tx) => tx.admins.resetSetup(id, 'sha256$new', NOW + 5)), true)
      assert.deepStrictEqual(await storage().admins.findById(id), anAdmin({ setupTokenHash: 'sha256$new', setupExpiresAt: NOW + 5 }))
      assert.equal(await storage().transaction((tx) => tx.admins.resetSetup('adm_none', 'sha256$x', NOW)), false)
    })

    it('of concurrent uses of one setup token exactly one sets the password', async () => {
      await withAdmin()
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          storage().transaction((tx) => tx.admins.setPassword(anAdmin().id, 'sha256$setup-token-hash', `$scrypt$${index}`), { concurrent: true }),
        ),
      )
      assert.equal(results.filter(Boolean).length, 1)
    })

    it('login failures count in fixed windows, atomically, only for admins that exist, and clear', async () => {
      await withAdmin()
      const id = anAdmin().id
      const fail = (now: number, adminId = id) => storage().transaction((tx) => tx.admins.recordLoginFailure(adminId, now, WINDOW), { concurrent: true })
      assert.deepStrictEqual(await fail(NOW), { failures: 1, endsAt: NOW + WINDOW })
      const counts = await Promise.all([fail(NOW + 1), fail(NOW + 2), fail(NOW + 3)])
      assert.deepStrictEqual(counts.map((window) => window!.failures).sort(), [2, 3, 4])
      assert.deepStrictEqual(await storage().admins.findLoginFailures(id, NOW + WINDOW - 1), { failures: 4, endsAt: NOW + WINDOW })
      assert.equal(await storage().admins.findLoginFailures(id, NOW + WINDOW), null)
      assert.deepStrictEqual(await fail(NOW + WINDOW), { failures: 1, endsAt: NOW + 2 * WINDOW })
      await storage().transaction((tx) => tx.admins.clearLoginFailures(id))
      assert.equal(await storage().admins.findLoginFailures(id, NOW + WINDOW), null)
      assert.equal(await fail(NOW, 'adm_none'), null)
      // The window is not part of the admin as read.
      assert.deepStrictEqual(await storage().admins.findById(id), anAdmin())
    })

    it('sessions round-trip, touch, end one by one, by admin, and with their admin', async () => {
      await withAdmin()
      await storage().transaction(async (tx) => {
        await tx.adminSessions.insert(aSession())
        await tx.adminSessions.insert(aSession({ idHash: 'sha256$session-two' }))
      })
      await assert.rejects(
        storage().transaction((tx) => tx.adminSessions.insert(aSession())),
        StorageConflict,
      )
      const found = await storage().adminSessions.findByIdHash('sha256$session-one')
      assert.deepStrictEqual(found, aSession())
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(await storage().transaction((tx) => tx.adminSessions.touch('sha256$session-one', NOW + 60_000)), true)
      assert.equal((await storage().adminSessions.findByIdHash('sha256$session-one'))!.lastSeenAt, NOW + 60_000)
      assert.equal(await storage().transaction((tx) => tx.adminSessions.delete('sha256$session-one')), true)
      assert.equal(await storage().transaction((tx) => tx.adminSessions.delete('sha256$session-one')), false)
      assert.equal(await storage().transaction((tx) => tx.adminSessions.touch('sha256$session-one', NOW)), false)
      assert.equal(await storage().transaction((tx) => tx.admins.delete(anAdmin().id)), true)
      assert.equal(await storage().adminSessions.findByIdHash('sha256$session-two'), null)
      assert.equal(await storage().transaction((tx) => tx.admins.delete(anAdmin().id)), false)
    })

    it('deleteByAdmin and purgeEnded return how many sessions they ended', async () => {
      await withAdmin()
      await storage().transaction(async (tx) => {
        await tx.adminSessions.insert(aSession({ idHash: 'sha256$idle', lastSeenAt: NOW }))
        await tx.adminSessions.insert(aSession({ idHash: 'sha256$old', createdAt: NOW - 10, lastSeenAt: NOW + 100 }))
        await tx.adminSessions.insert(aSession({ idHash: 'sha256$live', createdAt: NOW, lastSeenAt: NOW + 100 }))
      })
      assert.equal(await storage().transaction((tx) => tx.adminSessions.purgeEnded(NOW + 1, NOW)), 2)
      assert.notEqual(await storage().adminSessions.findByIdHash('sha256$live'), null)
      assert.equal(await storage().transaction((tx) => tx.adminSessions.deleteByAdmin(anAdmin().id)), 1)
      assert.equal(await storage().adminSessions.findByIdHash('sha256$live'), null)
    })
  })
}
