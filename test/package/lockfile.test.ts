/**
 * The committed package-lock.json is the one npm writes for package.json: otherwise `npm install` on a
 * fresh clone rewrites it (as it did when the root entry lacked `bin`), and a `npm ci` installs what the
 * manifest no longer says. npm recomputes the lockfile from the two files alone in an empty folder
 * (`--package-lock-only`: no node_modules, no install script; the packuments from npm's cache) and it
 * must come out byte for byte the same. The fix for a failure: `npm install`, then commit the lockfile.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** The lockfile npm writes for `manifest` and `lockfile` (its starting point, as in a clone), as text. */
async function lockfileNpmWrites(dir: string, manifest: string, lockfile: string): Promise<string> {
  writeFileSync(join(dir, 'package.json'), manifest)
  writeFileSync(join(dir, 'package-lock.json'), lockfile)
  await promisify(execFile)(npm, ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir })
  return readFileSync(join(dir, 'package-lock.json'), 'utf8')
}

describe('package-lock.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-lockfile-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  const manifest = readFileSync(join(root, 'package.json'), 'utf8')
  const lockfile = readFileSync(join(root, 'package-lock.json'), 'utf8')

  it('is what npm writes for package.json, byte for byte', { timeout: 120_000 }, async () => {
    assert.equal(await lockfileNpmWrites(dir, manifest, lockfile), lockfile, 'run npm install and commit package-lock.json')
  })

  it('a lockfile whose root entry has lost its bin is rewritten, so the check above can fail', { timeout: 120_000 }, async () => {
    const parsed = JSON.parse(lockfile) as { packages: Record<string, { bin?: unknown }> }
    assert.ok(parsed.packages['']!.bin, 'the root entry has a bin')
    delete parsed.packages['']!.bin
    const withoutBin = `${JSON.stringify(parsed, null, 2)}\n`
    const written = await lockfileNpmWrites(dir, manifest, withoutBin)
    assert.notEqual(written, withoutBin)
    assert.equal(written, lockfile)
  })
})
