/**
 * No function of the source over 150 lines (the house's bound): a function
 * that long does several jobs, and the next change to one of them costs a reader the others. Read with
 * TypeScript's own parser, every function-like node with a body counted from its first line to its last.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { sourceFiles } from './import-graph.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const MAX_LINES = 150

/** Each function of `text` longer than `max` lines, as `name (lines)`. */
export function longFunctions(file: string, text: string, max = MAX_LINES): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const name = node.name ? node.name.getText(source) : '(anonymous)'
      if (last - first + 1 > max) found.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('function length', () => {
  it(`no function in core/, adapters/, server/, client/ or index.ts is over ${MAX_LINES} lines`, () => {
    const files = ['core', 'adapters', 'server', 'client', 'index.ts']
      .flatMap((path) => sourceFiles(`${ROOT}${path}`))
      .filter((file) => !file.endsWith('.d.ts'))
    assert.ok(files.length > 300, `found only ${files.length} files`)
    const long = files.flatMap((file) => longFunctions(file.slice(ROOT.length), readFileSync(file, 'utf8')))
    assert.deepEqual(long, [], 'split it into functions that each do one job')
  })

  it('finds a long function, named or not', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const text = `export function short() {\n${body(3)}\n}\nexport function long() {\n${body(150)}\n}\nexport const arrow = () => {\n${body(149)}\n}\n`
    assert.deepEqual(longFunctions('x.ts', text), ['x.ts:6 long (152 lines)', 'x.ts:158 (anonymous) (151 lines)'])
  })
})
