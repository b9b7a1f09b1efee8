/**
 * The admin CLI's `reissue` (docs/api.md §4.17, docs/decisions/0046-reissue.md): one issuance with the
 * values to change, or a renewal of every issuance a CSV lists (a column `issuanceId`) with one expiry.
 */
import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { required, UsageError, type CommandSpec, type OptionSpec, type Options } from './command-line.ts'
import { MAX_REISSUE_IDS } from '../core/reissues/schema.ts'
import type { Issuer } from '../index.ts'
import type { ReissueBody } from '../core/inputs.ts'

const option = (name: string, value: string | undefined, description: string, isRequired = false): OptionSpec => ({
  name,
  ...(value ? { value } : {}),
  ...(isRequired ? { required: true } : {}),
  description,
})

/** `--expires-at DATE|none`: a date-time, or `none` for no expiry; absent keeps the issuance's. */
function expiresAtOf(o: Options): { expiresAt?: string | null } {
  const value = o['expires-at']
  if (value === undefined) return {}
  if (typeof value !== 'string' || value === '') throw new UsageError('--expires-at needs a date-time or none')
  return { expiresAt: value === 'none' ? null : value }
}

function templateOf(o: Options): { template?: 'current' } {
  if (o.template === undefined) return {}
  if (o.template !== 'current') throw new UsageError('--template takes only current (the template as it is now)')
  return { template: 'current' }
}

/** The ids of the CSV's column `issuanceId`, in file order; quotes around a value are allowed. */
export function issuanceIdsFromCsv(text: string): number[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
  const unquote = (cell: string) => cell.trim().replace(/^"(.*)"$/, '$1')
  const header = (lines[0] ?? '').split(',').map(unquote)
  const column = header.indexOf('issuanceId')
  if (column < 0) throw new UsageError('the CSV needs a header with the column issuanceId')
  return lines.slice(1).map((line, i) => {
    const cell = unquote(line.split(',')[column] ?? '')
    if (!/^[1-9]\d{0,15}$/.test(cell)) throw new UsageError(`line ${i + 2}: issuanceId is not an issuance id`)
    return Number(cell)
  })
}

/** Runs `reissue` with its parsed options; what it returns is printed. */
export async function runReissue(issuer: Issuer, o: Options): Promise<unknown> {
  const club = required(o, 'club')
  const common = { ...expiresAtOf(o), ...templateOf(o), ...(typeof o.reason === 'string' ? { reason: o.reason } : {}) }
  const mode = o.mode === undefined ? {} : { mode: o.mode as ReissueBody['mode'] }
  if (typeof o.csv === 'string') {
    if (o.issuance !== undefined || o.name !== undefined || o.email !== undefined) {
      throw new UsageError('--csv renews the issuances it lists: --issuance, --name and --email go with a single reissue')
    }
    if (!('expiresAt' in common)) throw new UsageError('--csv needs --expires-at')
    const text = readFileSync(o.csv, 'utf8')
    const ids = issuanceIdsFromCsv(text)
    // The same file run again replays its answers and reissues nothing twice (Idempotency-Key per chunk).
    const fingerprint = createHash('sha256').update(text).update(JSON.stringify(common)).digest('hex').slice(0, 16)
    const summary = { total: 0, ok: 0, skipped: 0, failed: 0 }
    const notReissued: unknown[] = []
    for (let start = 0; start < ids.length; start += MAX_REISSUE_IDS) {
      const { result } = await issuer.issuances.reissueMany(
        club,
        { issuanceIds: ids.slice(start, start + MAX_REISSUE_IDS), ...common, ...mode },
        { idempotencyKey: `cli-reissue-${fingerprint}-${start}`, idempotencyScope: 'cli' },
      )
      for (const key of ['total', 'ok', 'skipped', 'failed'] as const) summary[key] += result.summary[key]
      result.results.forEach((item, i) => {
        if (item.status !== 'reissued') notReissued.push({ line: start + i + 2, ...item })
      })
    }
    return { summary, notReissued }
  }
  const id = Number(required(o, 'issuance'))
  const body: ReissueBody = {
    ...common,
    ...mode,
    ...(typeof o.name === 'string' ? { name: o.name } : {}),
    ...(typeof o.email === 'string' ? { email: o.email } : {}),
  }
  return (await issuer.issuances.reissue(club, id, body)).detail
}

/** `reissue` as the CLI lists it; server/cli.ts adds `run: withIssuer(runReissue)`. */
export const REISSUE_COMMAND: Omit<CommandSpec<unknown>, 'run'> = {
  summary:
    'Reissues one issuance (--issuance: a new version for the same recipient, or with another --email a new issuance), or renews every issuance a CSV lists (--csv, a column issuanceId) with --expires-at; prints the detail, or { summary, notReissued[] }.',
  options: [
    option('club', 'D', 'the club, by its domain', true),
    option('issuance', 'ID', 'the issuance to reissue'),
    option('csv', 'FILE', 'a CSV with a column issuanceId: renew each'),
    option('name', 'N', "the recipient's name"),
    option('email', 'E', 'the e-mail: another address moves the credential to a new issuance'),
    option('expires-at', 'DATE|none', 'the new expiry (ISO 8601), or none'),
    option('template', 'current', 'engrave the template as it is now'),
    option('reason', 'R', 'kept for staff, never public'),
    option('mode', 'email|none', 'mail the recipient when signed (email) or not (none, the default)'),
  ],
}
