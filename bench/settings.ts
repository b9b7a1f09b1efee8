/**
 * The settings of every bench, taken one way: `--name value` on the command line, each with its default
 * (each bench lists its own at the top). A value that is not a number of zero or more stops the bench
 * before it runs: a silent NaN would print a result line of nonsense.
 *
 * @example
 * const { seconds, rounds } = benchSettings({ seconds: 3, rounds: 3 })   // npx tsx bench/x.bench.ts --seconds 10
 */
import { parseArgs } from 'node:util'

export function benchSettings<T extends Record<string, number>>(defaults: T): T {
  const options = Object.fromEntries(Object.keys(defaults).map((name) => [name, { type: 'string' as const }]))
  const { values } = parseArgs({ options })
  const settings: Record<string, number> = {}
  for (const [name, fallback] of Object.entries(defaults)) {
    const text = values[name] as string | undefined
    const value = text === undefined ? fallback : Number(text)
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`bench: --${name} must be a number of zero or more, got ${JSON.stringify(text)}`)
    settings[name] = value
  }
  return settings as T
}
