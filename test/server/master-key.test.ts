import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { loadMasterKey } from '../../server/master-key.ts'
import { tempDir } from '../support/temp-sqlite.ts'

describe('the master key', () => {
  it('is created on first use as 43 base64url characters with mode 0600, and read back the same', (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const first = loadMasterKey(dir.path, undefined)
    assert.equal(first.length, 32)
    const file = join(dir.path, 'master.key')
    assert.match(readFileSync(file, 'utf8'), /^[A-Za-z0-9_-]{43}\n$/)
    assert.equal((statSync(file).mode & 0o777).toString(8), '600')
    assert.deepStrictEqual(loadMasterKey(dir.path, undefined), first)
    assert.deepStrictEqual(readdirSync(dir.path), ['master.key'], 'no temporary file left behind')
  })

  it('CLUBCRED_MASTER_KEY wins, as 64 hex digits or 43 base64url characters, and writes no file', (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7)
    assert.deepStrictEqual(loadMasterKey(dir.path, Buffer.from(bytes).toString('hex')), bytes)
    assert.deepStrictEqual(loadMasterKey(dir.path, Buffer.from(bytes).toString('hex').toUpperCase()), bytes)
    assert.deepStrictEqual(loadMasterKey(dir.path, Buffer.from(bytes).toString('base64url')), bytes)
    assert.deepStrictEqual(readdirSync(dir.path), [])
  })

  it('refuses a key that is not 32 bytes, naming where it came from', (t) => {
    const dir = tempDir()
    t.after(() => dir.remove())
    for (const bad of ['00', 'x'.repeat(64), 'A'.repeat(42), 'A'.repeat(44), '0'.repeat(63)]) {
      assert.throws(() => loadMasterKey(dir.path, bad), /CLUBCRED_MASTER_KEY: the master key must be 32 bytes/)
    }
    writeFileSync(join(dir.path, 'master.key'), 'too short\n')
    assert.throws(() => loadMasterKey(dir.path, undefined), /master\.key: the master key must be 32 bytes/)
  })
})
