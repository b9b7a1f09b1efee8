/**
 * Citations point at documents a reader of the repository has: the interface spec by its name and
 * section, and the documents under docs/ by path, with a section after ` § ` where one is meant
 * (`docs/decisions/0004-authentication.md § Bearer checks`). The design and style notes the project
 * started from are not in the repository, so a comment citing them (by section sign or file name), or a
 * relative path that leaves the repository for a `shared/` folder beside it, sends the reader nowhere.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
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
    assert.deepEqual(
      outsideCitations(files),
      [],
      'cite a document under docs/ (a decision in docs/decisions/, say) by path and § heading, or the interface spec by section',
    )
  })

  it('the documents name a subject, never an issue number, which a reader of the docs does not have', () => {
    const documents = sources().filter((file) => file.endsWith('.md'))
    assert.ok(documents.some((file) => file.startsWith('docs/')))
    assert.deepEqual(issueNumbers(documents), [], 'name the subject (a decision of docs/decisions/, say) instead')
  })

  it('the sources name a subject, never an issue number, which a reader of the code does not have', () => {
    const code = sources().filter((file) => file.endsWith('.ts'))
    assert.ok(code.some((file) => file.startsWith('core/')) && code.includes('index.ts'))
    assert.deepEqual(issueNumbers(code), [], 'name the subject (a decision of docs/decisions/, say) instead')
  })
})

describe('citations of the documents under docs/', () => {
  it('every cited document exists, and every section cited after § is a heading of it', () => {
    const files = sources()
    const cited = documentCitations(files)
    assert.ok(cited.length > 150, `found only ${cited.length} citations of docs/`)
    assert.ok(cited.some((citation) => citation.section !== null && citation.path.startsWith('docs/decisions/')))
    assert.deepEqual(
      unresolvedCitations(cited),
      [],
      'cite an existing file under docs/, and a section as `§ Heading` with the heading as it stands in that file, on one line',
    )
  })

  it('every relative link of a document to another document resolves, its #anchor to a heading', () => {
    const documents = sources().filter((file) => file.endsWith('.md'))
    assert.ok(documents.includes('docs/decisions/README.md'))
    assert.deepEqual(brokenLinks(documents), [])
  })

  it('a citation that names a missing file or heading is reported', () => {
    const decision = 'docs/decisions/0004-authentication.md'
    const missing = ['docs', 'decisions', '9999-nothing.md'].join('/')
    const cited = [
      { where: 'a.ts:1', path: 'docs/decisions/0009-lists.md', section: null },
      { where: 'a.ts:2', path: decision, section: 'Bearer checks); more' },
      { where: 'a.ts:3', path: decision, section: '4.1 is a numbered section' },
      { where: 'b.ts:1', path: missing, section: null },
      { where: 'b.ts:2', path: decision, section: 'Bearer check' },
      { where: 'b.ts:3', path: decision, section: 'Bearer checkss' },
    ]
    assert.deepEqual(
      unresolvedCitations(cited).map((problem) => problem.split(' ')[0]),
      ['b.ts:1', 'b.ts:2', 'b.ts:3'],
    )
  })
})

/** A path under docs/ ending in `.md`, and what follows ` § ` on its line, if anything. */
const DOC_CITATION = /(?<![\w./-])(docs\/(?:[\w-]+\/)*[\w.-]+\.md)\b(?: § ([^\n]*))?/g

interface DocumentCitation {
  where: string
  path: string
  section: string | null
}

/** Every citation of a document under docs/ in the files, where it stands. */
export function documentCitations(files: string[]): DocumentCitation[] {
  return files.flatMap((file) =>
    readFileSync(`${ROOT}${file}`, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(DOC_CITATION)].map((match) => ({ where: `${file}:${index + 1}: ${line.trim()}`, path: match[1]!, section: match[2] ?? null })),
      ),
  )
}

/**
 * The citations whose file does not exist, or whose section does not begin with a heading of that file
 * followed by the end of the words (a bracket, a comma, the end of the line...). A section given by
 * number (`§4.1`, `§ 4.1`) is the numbered sections' own check.
 */
export function unresolvedCitations(cited: DocumentCitation[]): string[] {
  return cited.flatMap(({ where, path, section }) => {
    if (!existsSync(join(ROOT, path))) return [`${where} (no file ${path})`]
    if (section === null || /^\d/.test(section)) return []
    const named = headings(path).some((heading) => section.startsWith(heading) && !/^[\p{L}\p{N}_]/u.test(section.slice(heading.length)))
    return named ? [] : [`${where} (no heading of ${path} begins "§ ${section}")`]
  })
}

const headingCache = new Map<string, string[]>()

/** The headings of a Markdown file, as written after their `#`s, outside fenced code. */
function headings(path: string): string[] {
  let found = headingCache.get(path)
  if (found) return found
  found = []
  let fenced = false
  for (const line of readFileSync(join(ROOT, path), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^#{1,6} +(.+?) *$/.exec(line)
    if (heading) found.push(heading[1]!)
  }
  headingCache.set(path, found)
  return found
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_ -]/gu, '')
    .replace(/ /g, '-')
}

const LINK = /\]\(((?![a-z]+:|#)[^)\s]*?)(?:#([^)\s]+))?\)/g

/** Relative links of the Markdown files that lead nowhere, or to an anchor no heading makes. */
export function brokenLinks(documents: string[]): string[] {
  return documents.flatMap((file) =>
    readFileSync(`${ROOT}${file}`, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(LINK)].flatMap((match) => {
          const target = join(dirname(file), match[1]!)
          const where = `${file}:${index + 1}: ${match[0]}`
          if (!existsSync(join(ROOT, target))) return [where]
          const anchor = match[2]
          if (anchor === undefined || !target.endsWith('.md')) return []
          return headings(target).some((heading) => anchorOf(heading) === anchor) ? [] : [where]
        }),
      ),
  )
}

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
    const files = sources()
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

/** The files of core/ports/ and the folders of adapters/ that docs/architecture.md does not name. */
export function unnamedInArchitecture(page: string, ports: string[], adapterFolders: string[]): string[] {
  return [
    ...ports.filter((file) => !page.includes(`\`${file}\``) && !page.includes(`core/ports/${file}`)).map((file) => `core/ports/${file}`),
    ...adapterFolders.filter((folder) => !page.includes(`adapters/${folder}/`)).map((folder) => `adapters/${folder}/`),
  ]
}

describe('the architecture page', () => {
  it('names every port of core/ports/ and every folder of adapters/, so that it keeps up with the tree', () => {
    const page = readFileSync(`${ROOT}docs/architecture.md`, 'utf8')
    const ports = readdirSync(`${ROOT}core/ports`).filter((name) => name.endsWith('.ts'))
    const folders = readdirSync(`${ROOT}adapters`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
    assert.ok(ports.includes('storage.ts') && folders.includes('http'))
    assert.deepEqual(unnamedInArchitecture(page, ports, folders), [], 'name it in docs/architecture.md (§ Ports and adapters, each named)')
  })

  it('reports a port or a folder the page leaves out', () => {
    const page = 'The ports: `clock.ts`. The faces: `adapters/http/`.'
    assert.deepEqual(unnamedInArchitecture(page, ['clock.ts', 'random.ts'], ['http', 'smtp']), ['core/ports/random.ts', 'adapters/smtp/'])
  })
})
