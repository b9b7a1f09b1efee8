/**
 * Citations point at documents a reader of the repository has: the HTTP interface as docs/api.md and a
 * section number, docs/decisions.md and docs/architecture.md by section title. The design and style notes
 * the project started from, and the interface specification it was first written against, are not in the
 * repository, so a comment citing them (by section sign or file name), or a relative path that leaves the
 * repository for a `shared/` folder beside it, sends the reader nowhere.
 *
 * The rule for docs/api.md (`apiCitations`): a citation is `docs/api.md` and a section sign, then more
 * section signs joined by `, `, ` and ` or ` to `, each optionally qualified by `rule N` or `item N`:
 * `docs/api.md §2.6 to §2.8, §4.10 rules 5 and 8` cites 2.6, 2.8 and 4.10. The run ends at anything else, so
 * in `docs/api.md §4.1, RFC 6749 §5.1` only 4.1 is docs/api.md's. Every cited number must equal, digit for
 * digit, the number that opens a heading of docs/api.md (`### 4.10 Templates`): §4 is section 4, and never
 * resolves through 4.1; a number with no heading of its own fails even when a deeper one exists.
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
    assert.deepEqual(outsideCitations(files), [], 'cite docs/decisions.md or docs/architecture.md by section title, or docs/api.md by section number')
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

describe('citations of docs/api.md', () => {
  it('every docs/api.md citation names a section that docs/api.md has a heading for', () => {
    const citations = apiCitations(sources())
    assert.ok(citations.length > 250, `found only ${citations.length} citations of docs/api.md`)
    const sections = apiSections(readFileSync(`${ROOT}docs/api.md`, 'utf8'))
    const unresolved = citations.filter((citation) => !sections.has(citation.section)).map((citation) => `${citation.where} (§${citation.section})`)
    assert.deepEqual(unresolved, [], 'cite a section docs/api.md has, or give the section a heading there')
  })

  it('nothing cites the interface specification the project started from, which is not in the repository', () => {
    const files = sources().filter((file) => !UNREWRITTEN.some((prefix) => file.startsWith(prefix)))
    assert.deepEqual(outsideSpecCitations(files), [], 'cite docs/api.md by section number instead (docs/api.md, Citing this page)')
  })

  it('the links of docs/api.md to its own sections each land on a heading', () => {
    const text = readFileSync(`${ROOT}docs/api.md`, 'utf8')
    const anchors = new Set([...text.matchAll(/^#{1,4} (.+)$/gm)].map((heading) => slug(heading[1]!)))
    const links = [...text.matchAll(/\]\(#([^)]+)\)/g)].map((link) => link[1]!)
    assert.ok(links.length > 50, `found only ${links.length} links`)
    assert.deepEqual(
      links.filter((anchor) => !anchors.has(anchor)),
      [],
      'each (#anchor) must be the anchor of a heading of docs/api.md',
    )
  })
})

/**
 * Files whose citations of the outside specification are rewritten by the split of docs/decisions.md into
 * docs/decisions/ (those records are being moved, so they are left as they are meanwhile).
 */
const UNREWRITTEN = ['docs/decisions.md', 'docs/decisions/']

/** The numbers that open docs/api.md's headings: `### 4.10 Templates` gives `4.10`. */
export function apiSections(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,4} (\d+(?:\.\d+)*) /gm)].map((heading) => heading[1]!))
}

const SECTION = String.raw`§(\d+(?:\.\d+)*)(?: (?:rules?|items?) \d+(?:(?:, | and | to )\d+)*)?`
const API_CITATION = new RegExp(String.raw`docs/api\.md ${SECTION}(?:(?:,? and |, | to )${SECTION})*`, 'g')

/** Every section number cited from docs/api.md, with `file:line: text` (the rule is in this file's header). */
export function apiCitations(files: string[]): { section: string; where: string }[] {
  return files.flatMap((file) =>
    readFileSync(`${ROOT}${file}`, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(API_CITATION)].flatMap((run) =>
          [...run[0].matchAll(/§(\d+(?:\.\d+)*)/g)].map((sign) => ({ section: sign[1]!, where: `${file}:${index + 1}: ${line.trim()}` })),
        ),
      ),
  )
}

// Built from parts, so that this file does not cite what it forbids: the specification's file name, or a
// section sign after "spec" (or "specification"). A section sign after another standard's name is that
// standard's (`PNG spec §8.2`), allowed here by name.
const OUTSIDE_SPEC = new RegExp(String.raw`${['interface', 'spec'].join('-')}|(?<!\bPNG )\b${'spec'}\w* ?§`, 'i')

/** Every citation of the outside interface specification, by its file name or as "spec" and a section sign, as `file:line: text`. */
export function outsideSpecCitations(files: string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(`${ROOT}${file}`, 'utf8')
      .split('\n')
      .flatMap((line, index) => (OUTSIDE_SPEC.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  )
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
}
