import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import type { Admin } from '../../../core/admins/admin.ts'
import type { AdminPasskey, PasskeyChallenge } from '../../../core/admins/passkey.ts'

const NOW = 1_900_000_000_000

function anAdmin(overrides: Partial<Admin> = {}): Admin {
  return {
    id: 'adm_000000000000000000000001',
    club: 'chess',
    email: 'staff@chess.example',
    name: 'Staff',
    passwordHash: '$scrypt$x',
    setupTokenHash: null,
    setupExpiresAt: null,
    createdAt: NOW,
    ...overrides,
  }
}

function aPasskey(overrides: Partial<AdminPasskey> = {}): AdminPasskey {
  return {
    id: 'pk_000000000000000000000001',
    credentialId: 'Y3JlZGVudGlhbC1vbmU',
    publicKey: 'pQECAyYgASFYIA',
    counter: 0,
    transports: ['internal', 'hybrid'],
    adminId: anAdmin().id,
    club: 'chess',
    name: '노트북 Laptop',
    createdAt: NOW,
    lastUsedAt: null,
    ...overrides,
  }
}

function aChallenge(overrides: Partial<PasskeyChallenge> = {}): PasskeyChallenge {
  return { challenge: 'Y2hhbGxlbmdlLW9uZQ', purpose: 'login', boundTo: 'staff@chess.example', expiresAt: NOW + 300_000, ...overrides }
}

/** AdminPasskeyStore and PasskeyChallengeStore: core/ports/storage.ts. */
export function adminPasskeyCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('console passkeys and their challenges', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    const withAdmins = () =>
      storage().transaction(async (tx) => {
        await tx.clubs.insert(aClub())
        await tx.admins.insert(anAdmin())
        await tx.admins.insert(anAdmin({ id: 'adm_000000000000000000000002', email: 'other@chess.example' }))
      })

    it('a passkey round-trips as a plain object, found by credential id, listed oldest first per admin', async () => {
      await withAdmins()
      await storage().transaction(async (tx) => {
        await tx.adminPasskeys.insert(aPasskey({ id: 'pk_b', credentialId: 'b', createdAt: NOW + 1 }))
        await tx.adminPasskeys.insert(aPasskey())
        await tx.adminPasskeys.insert(aPasskey({ id: 'pk_a', credentialId: 'a', createdAt: NOW + 1 }))
        await tx.adminPasskeys.insert(aPasskey({ id: 'pk_other', credentialId: 'other', adminId: 'adm_000000000000000000000002' }))
      })
      const found = await storage().adminPasskeys.findByCredentialId(aPasskey().credentialId)
      assert.deepStrictEqual(found, aPasskey())
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(await storage().adminPasskeys.findByCredentialId('none'), null)
      assert.deepStrictEqual(
        (await storage().adminPasskeys.listByAdmin(anAdmin().id)).map((passkey) => passkey.id),
        [aPasskey().id, 'pk_a', 'pk_b'],
      )
      assert.deepStrictEqual(await storage().adminPasskeys.listByAdmin('adm_none'), [])
    })

    it('an id or a credential id is unique across admins: StorageConflict, nothing stored', async () => {
      await withAdmins()
      await storage().transaction((tx) => tx.adminPasskeys.insert(aPasskey()))
      await assert.rejects(
        storage().transaction((tx) => tx.adminPasskeys.insert(aPasskey({ id: 'pk_two', adminId: 'adm_000000000000000000000002' }))),
        StorageConflict,
      )
      await assert.rejects(
        storage().transaction((tx) => tx.adminPasskeys.insert(aPasskey({ credentialId: 'another' }))),
        StorageConflict,
      )
      assert.deepStrictEqual(await storage().adminPasskeys.listByAdmin('adm_000000000000000000000002'), [])
    })

    it('recordUse sets the counter and last use; delete takes only the named admin’s passkey', async () => {
      await withAdmins()
      await storage().transaction((tx) => tx.adminPasskeys.insert(aPasskey()))
      assert.equal(await storage().transaction((tx) => tx.adminPasskeys.recordUse(aPasskey().id, 7, NOW + 5)), true)
      assert.deepStrictEqual(await storage().adminPasskeys.findByCredentialId(aPasskey().credentialId), aPasskey({ counter: 7, lastUsedAt: NOW + 5 }))
      assert.equal(await storage().transaction((tx) => tx.adminPasskeys.recordUse('pk_none', 1, NOW)), false)
      assert.equal(await storage().transaction((tx) => tx.adminPasskeys.delete('adm_000000000000000000000002', aPasskey().id)), false)
      assert.notEqual(await storage().adminPasskeys.findByCredentialId(aPasskey().credentialId), null)
      assert.equal(await storage().transaction((tx) => tx.adminPasskeys.delete(anAdmin().id, aPasskey().id)), true)
      assert.equal(await storage().transaction((tx) => tx.adminPasskeys.delete(anAdmin().id, aPasskey().id)), false)
      assert.equal(await storage().adminPasskeys.findByCredentialId(aPasskey().credentialId), null)
    })

    it('passkeys go with deleteByAdmin and with their admin', async () => {
      await withAdmins()
      await storage().transaction(async (tx) => {
        await tx.adminPasskeys.insert(aPasskey())
        await tx.adminPasskeys.insert(aPasskey({ id: 'pk_two', credentialId: 'two' }))
        await tx.adminPasskeys.insert(aPasskey({ id: 'pk_other', credentialId: 'other', adminId: 'adm_000000000000000000000002' }))
      })
      assert.equal(await storage().transaction((tx) => tx.adminPasskeys.deleteByAdmin(anAdmin().id)), 2)
      assert.deepStrictEqual(await storage().adminPasskeys.listByAdmin(anAdmin().id), [])
      assert.equal(await storage().transaction((tx) => tx.admins.delete('adm_000000000000000000000002')), true)
      assert.equal(await storage().adminPasskeys.findByCredentialId('other'), null)
    })

    it('a challenge is consumed once, also by concurrent calls, and inserting purges expired ones', async () => {
      await storage().transaction((tx) => tx.passkeyChallenges.insert(aChallenge(), NOW))
      await assert.rejects(
        storage().transaction((tx) => tx.passkeyChallenges.insert(aChallenge(), NOW)),
        StorageConflict,
      )
      const consumed = await Promise.all(
        Array.from({ length: 5 }, () => storage().transaction((tx) => tx.passkeyChallenges.consume(aChallenge().challenge), { concurrent: true })),
      )
      assert.deepStrictEqual(
        consumed.filter((found) => found !== null),
        [aChallenge()],
      )
      assert.equal(Object.getPrototypeOf(consumed.find((found) => found !== null)), Object.prototype)
      assert.equal(await storage().transaction((tx) => tx.passkeyChallenges.consume('none')), null)
      await storage().transaction((tx) => tx.passkeyChallenges.insert(aChallenge({ challenge: 'old', expiresAt: NOW }), NOW - 1))
      await storage().transaction((tx) => tx.passkeyChallenges.insert(aChallenge({ challenge: 'new', purpose: 'setup', boundTo: '' }), NOW))
      assert.equal(await storage().transaction((tx) => tx.passkeyChallenges.consume('old')), null)
      assert.deepStrictEqual(
        await storage().transaction((tx) => tx.passkeyChallenges.consume('new')),
        aChallenge({ challenge: 'new', purpose: 'setup', boundTo: '' }),
      )
    })

    it('an insert with keep leaves that many challenges of its purpose, dropping those that expire first', async () => {
      // @see docs/decisions/0042-outside-review-smaller-findings.md: anyone may ask for login challenges, so what is kept of them is bounded.
      await storage().transaction((tx) => tx.passkeyChallenges.insert(aChallenge({ challenge: 'setup-one', purpose: 'setup', boundTo: '' }), NOW))
      for (let i = 0; i < 5; i++) {
        await storage().transaction((tx) => tx.passkeyChallenges.insert(aChallenge({ challenge: `login-${i}`, expiresAt: NOW + 1000 + i }), NOW, 3))
      }
      const left = []
      for (let i = 0; i < 5; i++) left.push((await storage().transaction((tx) => tx.passkeyChallenges.consume(`login-${i}`)))?.challenge ?? null)
      assert.deepStrictEqual(left, [null, null, 'login-2', 'login-3', 'login-4'])
      assert.equal((await storage().transaction((tx) => tx.passkeyChallenges.consume('setup-one')))?.purpose, 'setup', 'another purpose is not counted')
    })
  })
}
