/**
 * Dependency install scripts are decided, one by one, in package.json `allowScripts`: npm 11 warns about
 * every script it does not cover, and npm 12 skips them, so an undecided better-sqlite3 would install
 * without its native build and the server would fail at start. This reads the lockfile (what `npm ci`
 * installs, on any npm version) so that the next dependency with an install script fails here until
 * someone approves or denies it (`npm install-scripts approve|deny <pkg>`).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'

const root = new URL('../../', import.meta.url)
const readJson = (name: string) => JSON.parse(readFileSync(new URL(name, root), 'utf8'))

const allowScripts = (readJson('package.json').allowScripts ?? {}) as Record<string, boolean>
const lockfile = readJson('package-lock.json') as {
  packages: Record<string, { name?: string; version?: string; resolved?: string; hasInstallScript?: boolean }>
}

/** Each installed package with an install script, by the name npm matches (an alias's real name). */
const withInstallScripts = Object.entries(lockfile.packages)
  .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
  .map(([path, entry]) => {
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
    // npm matches a pinned entry (`name@version`) against the resolved tarball; a lockfile written without
    // `resolved` (omit-lockfile-registry-resolved, as ours is) can only be covered by name-only entries.
    return { name, version: entry.version!, pinnedKey: entry.resolved ? `${name}@${entry.version}` : undefined }
  })

type WithInstallScript = (typeof withInstallScripts)[number]

/** The entry that decides for a package: `name@version` (the version reviewed) first, else `name` (any version). */
const decisionFor = ({ name, pinnedKey }: WithInstallScript) => (pinnedKey === undefined ? undefined : allowScripts[pinnedKey]) ?? allowScripts[name]

describe('dependency install scripts', () => {
  it('every dependency with an install script is approved or denied in allowScripts', () => {
    const undecided = withInstallScripts.filter((pkg) => decisionFor(pkg) === undefined).map(({ name, version }) => `${name}@${version}`)
    assert.deepStrictEqual(undecided, [], 'run `npm install-scripts ls`, review, then approve or deny')
  })

  it('every allowScripts entry names an installed package that has an install script', () => {
    const matches = (key: string) => withInstallScripts.some(({ name, pinnedKey }) => key === name || key === pinnedKey)
    const stale = Object.keys(allowScripts).filter((key) => !matches(key))
    assert.deepStrictEqual(stale, [], 'run `npm install-scripts prune`')
  })

  it('better-sqlite3 may build its native module: the server and clubcred/sqlite/better-sqlite3 load it', () => {
    const betterSqlite3 = withInstallScripts.find(({ name }) => name === 'better-sqlite3')
    assert.ok(betterSqlite3, 'better-sqlite3 is installed with its install script')
    assert.equal(decisionFor(betterSqlite3), true)
  })
})
