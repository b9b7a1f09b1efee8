/**
 * Reads the static import graph of TypeScript sources: every `import … from`, `export … from`, side-effect
 * `import '…'` and dynamic `import('…')` with a literal specifier. Type-only forms are edges like any
 * other (`import type`, `import { type T }`, `export type … from`, `import('…').T` in a type): a cycle
 * of types still ties two files into one unit that neither can be read or moved without.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

export interface ImportEdge {
  /** The importing file, relative to the root the graph was read from. */
  file: string
  line: number
  specifier: string
}

const SPECIFIER = /(?:\bimport|\bexport)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g

/** The imports of the files under `paths` (folders or single files, relative to `root`). */
export function importsOf(root: string, ...paths: string[]): ImportEdge[] {
  const edges: ImportEdge[] = []
  for (const file of paths.flatMap((path) => sourceFiles(join(root, path)))) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = (match[1] ?? match[2] ?? match[3])!
      const line = text.slice(0, match.index).split('\n').length
      edges.push({ file: relative(root, file).split(sep).join('/'), line, specifier })
    }
  }
  return edges
}

export function sourceFiles(path: string): string[] {
  if (statSync(path).isFile()) return [path]
  const folder = path
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|mts)$/.test(entry.name) ? [path] : []
  })
}

/**
 * The rule of docs/architecture.md § Layers, for `core/`: no Node built-in (with or without `node:`), nothing
 * outside `core/` by a relative path (so no `adapters/`, `server/` or `test/`), and only the listed
 * runtime-agnostic packages. Returns one line per breach.
 */
export function coreBoundaryBreaches(root: string, allowedPackages: readonly string[], builtins: readonly string[]): string[] {
  const coreRoot = resolve(root, 'core')
  return importsOf(root, 'core').flatMap(({ file, line, specifier }) => {
    const where = `${file}:${line} imports '${specifier}'`
    if (specifier.startsWith('.')) {
      const target = resolve(root, dirname(file), specifier)
      return target === coreRoot || target.startsWith(coreRoot + sep) ? [] : [`${where}: outside core/`]
    }
    if (specifier.startsWith('node:') || builtins.includes(specifier.split('/')[0]!)) return [`${where}: a Node built-in`]
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!
    return allowedPackages.includes(name) ? [] : [`${where}: a package core may not use`]
  })
}

/**
 * Import cycles among the files under `paths` (folders or files; relative imports, type-only ones too),
 * as a depth-first walk meets them: each as the files along it, the first repeated at the end. Empty
 * when there is none.
 */
export function importCycles(root: string, ...paths: string[]): string[][] {
  const graph = new Map<string, string[]>()
  for (const { file, specifier } of importsOf(root, ...paths)) {
    if (!specifier.startsWith('.')) continue
    const target = relative(root, resolve(root, dirname(file), specifier))
      .split(sep)
      .join('/')
    graph.set(file, [...(graph.get(file) ?? []), target])
  }
  const cycles: string[][] = []
  const done = new Set<string>()
  const path: string[] = []
  const visit = (file: string): void => {
    if (done.has(file)) return
    const at = path.indexOf(file)
    if (at >= 0) {
      cycles.push([...path.slice(at), file])
      return
    }
    path.push(file)
    for (const next of graph.get(file) ?? []) visit(next)
    path.pop()
    done.add(file)
  }
  for (const file of graph.keys()) visit(file)
  return cycles
}
