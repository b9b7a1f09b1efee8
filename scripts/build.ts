/**
 * `npm run build`, which `npm pack` runs through `prepack` (docs/install.md § What the package ships):
 * dist/ is built from nothing, so a file of an earlier build (a module since renamed or removed) never
 * ships; then tsc emits JavaScript and declarations, without source maps; then the files the code reads
 * at run time beside itself (`new URL('./…', import.meta.url)`) are copied to the same place under dist/.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/** Files and folders read at run time, by their path in the sources; each lands at `dist/<path>`. */
const RUNTIME_FILES = [
  // The two Pretendard faces of certificate PDFs and their licence (adapters/pdf/fonts.ts).
  'adapters/pdf/fonts',
]

const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

rmSync(`${root}dist`, { recursive: true, force: true })
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })
for (const path of RUNTIME_FILES) cpSync(`${root}${path}`, `${root}dist/${path}`, { recursive: true })
