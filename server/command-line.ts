import { parseArgs } from 'node:util'

/**
 * What a command of the `clubcred` command declares, once: its summary and options. The usage lines,
 * `--help` and the option parser all come from it (docs/install.md § Commands), so help cannot drift
 * from what a command accepts.
 */
export interface OptionSpec {
  /** `--name`. */
  name: string
  /** The placeholder of its value (`D`, `URL`); absent, the option is a flag. */
  value?: string
  required?: boolean
  description: string
}

export interface CommandSpec<Context> {
  /** One line: what the command does. */
  summary: string
  options: OptionSpec[]
  /** One word after the command's own (`verify-backup FILE`): its placeholder, handed to `run` as the option of that name. */
  argument?: { name: string; description: string }
  /** Runs with the parsed options; what it returns is printed as the one JSON object on stdout. */
  run(options: Options, context: Context): Promise<unknown>
}

export type Options = Record<string, string | boolean | undefined>

/** A mistake of the caller (`{ "error": { "code": "usage" } }`, exit 2), not of the data. */
export class UsageError extends Error {}

/** `--domain D`, `[--no-issue]`, `[--scopes "..."]`: how the usage line shows an option. */
function shown(option: OptionSpec): string {
  const text = option.value ? `--${option.name} ${option.value}` : `--${option.name}`
  return option.required ? text : `[${text}]`
}

/** `club create --domain D --name N [--no-issue]`. */
export function usageLine(name: string, spec: CommandSpec<unknown>): string {
  return [name, ...(spec.argument ? [spec.argument.name] : []), ...spec.options.map(shown)].join(' ')
}

/** The help of one command: usage, summary, one line per option. */
export function commandHelp(program: string, name: string, spec: CommandSpec<unknown>): string {
  const width = Math.max(0, ...spec.options.map((option) => (option.value ? `--${option.name} ${option.value}` : `--${option.name}`).length))
  const lines = spec.options.map((option) => {
    const text = option.value ? `--${option.name} ${option.value}` : `--${option.name}`
    return `  ${text.padEnd(width)}  ${option.description}${option.required ? ' (required)' : ''}`
  })
  if (spec.argument) lines.unshift(`  ${spec.argument.name.padEnd(width)}  ${spec.argument.description} (required)`)
  return [`usage: ${program} ${usageLine(name, spec)}`, '', spec.summary, ...(lines.length ? ['', 'options:', ...lines] : [])].join('\n') + '\n'
}

/** The words of a command (`webhook create`) and the arguments after them. */
export function splitCommand(argv: string[]): { words: string[]; rest: string[] } {
  const first = argv.findIndex((arg) => arg.startsWith('-'))
  const end = first === -1 ? argv.length : first
  return { words: argv.slice(0, end), rest: argv.slice(end) }
}

/**
 * The command that `words` name, and its argument: `verify-backup FILE` is the command `verify-backup`
 * with `FILE`, when that command declares an argument.
 */
export function findCommand<Spec extends CommandSpec<never>>(
  commands: Record<string, Spec>,
  words: string[],
): { name: string; command: Spec | undefined; argument?: string } {
  const name = words.join(' ')
  if (commands[name] || words.length < 2) return { name, command: commands[name] }
  const head = words.slice(0, -1).join(' ')
  const command = commands[head]
  return command?.argument ? { name: head, command, argument: words.at(-1)! } : { name, command: undefined }
}

export const wantsHelp = (argv: string[]): boolean => argv.includes('--help') || argv.includes('-h')

/**
 * The options of one command, strictly: an option it does not declare, a flag given a value or an
 * option without one is a usage error, as is a missing required option.
 */
export function parseOptions(spec: CommandSpec<unknown>, args: string[], argument?: string): Options {
  let values: Options
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(spec.options.map((option) => [option.name, { type: option.value ? ('string' as const) : ('boolean' as const) }])),
    }).values as Options
  } catch (error) {
    // parseArgs quotes a stray argument, which may be a secret typed without its option: name none.
    if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError('this command takes no argument that is not the value of an option (see its --help)')
    }
    throw new UsageError((error as Error).message)
  }
  for (const option of spec.options) {
    if (option.required) required(values, option.name)
  }
  if (spec.argument) {
    if (argument === undefined) throw new UsageError(`${spec.argument.name} is required: ${spec.argument.description}`)
    values[spec.argument.name] = argument
  }
  return values
}

/** A required string option, or a usage error naming it. */
export function required(options: Options, name: string): string {
  const value = options[name]
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`)
  return value
}
