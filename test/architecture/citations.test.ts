/**
 * Citations point at documents a reader of the repository has: the interface spec by its name and
 * section, docs/decisions.md and docs/architecture.md by section title. The design and style notes the
 * project started from are not in the repository, so a comment citing them (by section sign or file
 * name), or a relative path that leaves the repository for a `shared/` folder beside it, sends the
 * reader nowhere.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DIRS = ['core', 'adapters', 'server', 'client', 'test', 'bench', 'examples', 'docs']

// Built from parts, so that this file does not cite what it forbids.
const NOTES = ['DESIGN', 'STYLE'].join('|')
const CITATION = new RegExp(`\\b(?:${NOTES}) ?§|\\b(?:${NOTES})\\.md\\b`)
const SHARED_PATH = /(?:\.\.\/)+shared\/[\w./-]+/g

function sources(): string[] {
  const files = DIRS.flatMap((dir) =>
    readdirSync(`${ROOT}${dir}`, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') || name.endsWith('.md'))
      .map((name) => `${dir}/${name}`),
  )
  return [...files, 'index.ts', 'README.md']
}

/** Every citation of a document outside the repository, as `file:line: text`. */
export function outsideCitations(files: string[]): string[] {
  const found: string[] = []
  for (const file of files) {
    const lines = readFileSync(`${ROOT}${file}`, 'utf8').split('\n')
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}: ${line.trim()}`
      if (CITATION.test(line)) found.push(where)
      // A relative path into a `shared/` folder is fine when it resolves inside the repository (adapters/shared/).
      for (const path of line.match(SHARED_PATH) ?? []) {
        if (!existsSync(resolve(ROOT, dirname(file), path))) found.push(where)
      }
    })
  }
  return found
}

describe('citations', () => {
  it('no comment or document cites the design or style notes, which are not in the repository', () => {
    const files = sources()
    assert.ok(files.length > 300, `found only ${files.length} files`)
    assert.deepEqual(outsideCitations(files), [], 'cite docs/decisions.md or docs/architecture.md by section title, or the interface spec by section')
  })

  it('the documents name a subject, never an issue number, which a reader of the docs does not have', () => {
    const documents = sources().filter((file) => file.endsWith('.md'))
    assert.ok(documents.some((file) => file.startsWith('docs/')))
    assert.deepEqual(issueNumbers(documents), [], 'name the subject (a section title of docs/decisions.md, say) instead')
  })

  it('the sources name a subject, never an issue number, which a reader of the code does not have', () => {
    const code = sources().filter((file) => file.endsWith('.ts'))
    assert.ok(code.some((file) => file.startsWith('core/')) && code.includes('index.ts'))
    assert.deepEqual(issueNumbers(code), [], 'name the subject (a section title of docs/decisions.md, say) instead')
  })
})

/**
 * Every mention of an issue by number, as `file:line: text`. The verb takes a count too (a test that
 * issues five hundred recipients, or a thousand, says so with digits), so a number counts as an issue's only
 * where a citation stands: after `(`, `@see`, `of`, `in`, `since` or a comma, or before `)`, `:`, `;`,
 * an item, a quoted title or the end of the line.
 */
export function issueNumbers(files: string[]): string[] {
  const NUMBER = String.raw`issues? #?\d+(?!\d|[,.]\d)`
  const ISSUE = new RegExp(String.raw`(?:\(|@see |\b(?:see|of|in|since) |[,;] )${NUMBER}|\b${NUMBER}(?=\)|[:;]|,? items?\b| and \d|,? "|\.?\s*(?:\*/)?$)`, 'i')
  return files.flatMap((file) =>
    readFileSync(`${ROOT}${file}`, 'utf8')
      .split('\n')
      .flatMap((line, index) => (ISSUE.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  )
}
