/**
 * The admin CLI, the dashboard stand-in (DESIGN §4): `npm run -s cli -- <command>`. Prints exactly one
 * JSON object on stdout; on failure `{ "error": { code, message } }` and a non-zero exit.
 */
import { parseArgs } from 'node:util'
import { ProblemError } from '../core/errors.ts'
import { readServerConfig, resolveUrls } from './config.ts'
import type { Issuer } from '../index.ts'

class UsageError extends Error {}

const USAGE = `commands:
  club create --domain D --name N [--no-issue]
  club verify --club D [--off]
  client create --club D [--scopes "issuance:write issuance:read ..."]
  client rotate --client ID
  client delete --client ID
  apikey create --club D
  key rotate --club D`

type Options = Record<string, string | boolean | undefined>
type Command = (issuer: Issuer, options: Options) => Promise<unknown>

const required = (options: Options, name: string): string => {
  const value = options[name]
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`)
  return value
}

const COMMANDS: Record<string, Command> = {
  'club create': (issuer, o) =>
    issuer.clubs.create({ domain: required(o, 'domain'), name: required(o, 'name'), canIssue: !o['no-issue'] }),
  'club verify': (issuer, o) => issuer.clubs.setVerified(required(o, 'club'), !o.off),
  'client create': (issuer, o) =>
    issuer.clients.create({
      club: required(o, 'club'),
      ...(typeof o.scopes === 'string' ? { scopes: o.scopes.split(/[\s,]+/).filter(Boolean) } : {}),
    }),
  'client rotate': (issuer, o) => issuer.clients.rotate(required(o, 'client')),
  'client delete': (issuer, o) => issuer.clients.delete(required(o, 'client')),
  'apikey create': (issuer, o) => issuer.legacy.createApiKey(required(o, 'club')),
  'key rotate': async (issuer, o) => {
    const club = required(o, 'club')
    if (!(await issuer.clubs.find(club))) throw new ProblemError('club-not-found', { detail: `There is no club ${club}.` })
    const key = await issuer.keys.rotate(club)
    return { kid: key.kid, club, createdAt: new Date(key.createdAt).toISOString() }
  },
}

async function main(argv: string[]): Promise<number> {
  let issuer: Issuer | undefined
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        domain: { type: 'string' },
        name: { type: 'string' },
        club: { type: 'string' },
        client: { type: 'string' },
        scopes: { type: 'string' },
        'no-issue': { type: 'boolean' },
        off: { type: 'boolean' },
      },
    })
    const command = COMMANDS[positionals.slice(0, 2).join(' ')]
    if (!command || positionals.length !== 2) throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}\n${USAGE}`)
    const config = readServerConfig()
    // Loaded only once the command is known: a usage error answers without loading the issuer.
    const [{ wireIssuer }, { betterSqlite3Driver }] = await Promise.all([
      import('./wire.ts'),
      import('../adapters/sqlite/driver-better-sqlite3.ts'),
    ])
    issuer = wireIssuer({ config, urls: resolveUrls(config, config.port), openDriver: betterSqlite3Driver })
    print(await command(issuer, values))
    return 0
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      print({ error: { code: 'usage', message: (error as Error).message } })
      return 2
    }
    if (error instanceof ProblemError) {
      print({ error: { code: error.code, message: error.detail ?? error.message, ...(error.errors ? { errors: error.errors } : {}) } })
      return 1
    }
    console.error(error)
    print({ error: { code: 'internal-error', message: (error as Error).message } })
    return 1
  } finally {
    await issuer?.close()
  }
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n')
}

const exitCode = await main(process.argv.slice(2))
// Exit explicitly once stdout is flushed: a command is done when it has printed, whatever handles a
// library left open (a worker thread, a timer), so that scripts calling the CLI never hang.
process.stdout.write('', () => process.exit(exitCode))
