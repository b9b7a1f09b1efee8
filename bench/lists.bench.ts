/**
 * Lists stay flat: milliseconds per page of 100 for the issuance list and the event feed, the
 * first (newest) page beside the deepest (oldest) one, at 10,000 and at 1,000,000 rows, read through the
 * issuer (`issuer.issuances.list`, `issuer.events.list`) on a real SQLite file. Keyset pagination should
 * make the deep page cost what the first costs: the target is deep ≤ 1.2 × first. Then the issuance list
 * filtered by `status` and `claimed`: each filtered first page against the unfiltered first
 * page, target ≤ 2 ×, with a tenth of the issuances revoked and a fifth claimed by a wallet. Prints one JSON line.
 *
 *   npx tsx bench/lists.bench.ts [--sizes 2] [--reads 200]      (--sizes 1: the 10,000-row database only)
 *
 * The rows are seeded with plain SQL in one transaction (the issuing path would take an hour for a
 * million): one club, one template, each issuance with its credential (a short placeholder JWT, so that
 * a million rows stay small on disk; first and deep pages read their 100 JWTs alike) and one event per
 * issuance.
 * The timed reads go through the issuer only. First and deep pages are read alternately in the same loop
 * so that other work on the machine disturbs both alike; the figure is the median. No ANALYZE, as in a
 * running server: the planner picks the (club, position) index, as it does for a small club in a big file.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIssuer, defaultUrls, type Issuer } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { benchSettings } from './settings.ts'
import { median } from './measure.ts'
import { seedIssuances } from './seed-sqlite.ts'

const { sizes: SIZES, reads: READS } = benchSettings({ sizes: 2, reads: 200 })
const ROW_COUNTS = [10_000, 1_000_000].slice(0, Math.max(1, SIZES))
const PAGE = 100
const CLUB = 'bench'

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-lists-'))

function openIssuer(file: string): Issuer {
  return createIssuer({
    storage: createSqliteStorage({ driver: betterSqlite3Driver(file) }),
    masterKey: new Uint8Array(32).fill(1),
    urls: defaultUrls(8787),
  })
}

/** `rows` issuances, each with its credential and its event. */
function seed(file: string, rows: number): Promise<void> {
  return seedIssuances(file, CLUB, rows, (db) => {
    const credential = db.prepare(
      // The rowid is the issuance's sequence: the credentials' key since migration 0012.
      `INSERT INTO credentials (rowid, issuance_id, id, club, jwt, issued_at, status_list_id, status_list_index) VALUES (?, ?, ?, ?, ?, ?, 1, ?)`,
    )
    const event = db.prepare(`INSERT INTO events (id, club, type, subject_type, subject_id, occurred_at) VALUES (?, ?, 'issuance.issued', 'issuance', ?, ?)`)
    const revoke = db.prepare('UPDATE issuances SET revoked_at = ? WHERE seq = ?')
    const claim = db.prepare(
      `INSERT INTO issuance_claims (issuance_id, issuance_seq, club, via, format, at, first) VALUES (?, ?, ?, 'oid4vci', 'jwt_vc_json', ?, 1)`,
    )
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.' + 'x'.repeat(160) + '.sig'
    return ({ id, seq, createdAt }) => {
      credential.run(seq, id, `urn:uuid:00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`, CLUB, jwt, createdAt, seq)
      event.run(seq, CLUB, String(id), createdAt)
      if (seq % 10 === 3) revoke.run(createdAt + 1, seq)
      if (seq % 5 === 1) claim.run(id, seq, CLUB, createdAt + 2)
    }
  })
}

/** The cursor a page before `position` carries (core/lists/cursor.ts: the list's name and the position, base64url). */
const cursorBefore = (list: string, position: number) => Buffer.from(`${list}:${position}`).toString('base64url')

async function timePages(read: (cursor: string | null) => Promise<{ data: unknown[] }>, deepCursor: string) {
  const first: number[] = []
  const deep: number[] = []
  for (let warm = 0; warm < 20; warm++) {
    await read(null)
    await read(deepCursor)
  }
  for (let i = 0; i < READS; i++) {
    for (const [cursor, into] of [
      [null, first],
      [deepCursor, deep],
    ] as const) {
      const started = performance.now()
      const page = await read(cursor)
      into.push(performance.now() - started)
      if (page.data.length !== PAGE) throw new Error(`a page of ${page.data.length} rows, not ${PAGE}`)
    }
  }
  const firstMs = median(first)
  const deepMs = median(deep)
  return { firstMs: Number(firstMs.toFixed(3)), deepMs: Number(deepMs.toFixed(3)), deepToFirst: Number((deepMs / firstMs).toFixed(2)) }
}

/** The first page of the issuance list under each filter beside the unfiltered one, read alternately; medians and ratios. */
async function timeFilters(issuer: Issuer, limit: string) {
  const filters: Record<string, Record<string, string>> = {
    none: {},
    'status=valid': { status: 'valid' },
    'status=revoked': { status: 'revoked' },
    'claimed=true': { claimed: 'true' },
    'claimed=false': { claimed: 'false' },
    'status=valid&claimed=true': { status: 'valid', claimed: 'true' },
  }
  const times = new Map(Object.keys(filters).map((name) => [name, [] as number[]]))
  for (let i = 0; i < READS + 20; i++) {
    for (const [name, filter] of Object.entries(filters)) {
      const started = performance.now()
      const page = await issuer.issuances.list(CLUB, { limit, ...filter })
      if (i >= 20) times.get(name)!.push(performance.now() - started)
      if (page.data.length !== PAGE) throw new Error(`${name}: a page of ${page.data.length} rows, not ${PAGE}`)
    }
  }
  const unfiltered = median(times.get('none')!)
  return Object.fromEntries(
    [...times].map(([name, ms]) => [name, { ms: Number(median(ms).toFixed(3)), toUnfiltered: Number((median(ms) / unfiltered).toFixed(2)) }]),
  )
}

try {
  const result: Record<string, unknown> = { bench: 'lists', pageSize: PAGE, reads: READS }
  for (const rows of ROW_COUNTS) {
    const file = join(dir, `lists-${rows}.db`)
    const seedStarted = performance.now()
    await seed(file, rows)
    const seedSeconds = (performance.now() - seedStarted) / 1000
    const issuer = openIssuer(file)
    const limit = String(PAGE)
    // The deepest full page: the oldest 100 rows (positions 1..100), read with the cursor of position 101.
    const issuances = await timePages((cursor) => issuer.issuances.list(CLUB, { limit, cursor }), cursorBefore('issuances', PAGE + 1))
    const events = await timePages((cursor) => issuer.events.list(CLUB, { limit, cursor }), cursorBefore('events', PAGE + 1))
    const filtered = await timeFilters(issuer, limit)
    await issuer.close()
    result[`rows${rows}`] = { issuances, events, filtered, seedSeconds: Number(seedSeconds.toFixed(1)) }
    rmSync(file, { force: true })
  }
  result.unit = 'ms per page (median)'
  result.node = process.version
  console.log(JSON.stringify(result))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
