#!/usr/bin/env node
/**
 * `clubcred`, the one installed command (package.json `bin`; docs/install.md): `clubcred serve` starts the
 * server as `npm start` does, `clubcred <admin command>` runs the admin CLI as `npm run cli` does, and
 * `--help` describes either. Each side is imported only when chosen: `serve` never loads the CLI, and an
 * admin command never starts a server.
 */
import { readFileSync } from 'node:fs'
import process from 'node:process'

// `clubcred help [command]` is `clubcred [command] --help`: `npx clubcred --help` prints npm's own help.
const argv = process.argv[2] === 'help' ? [...process.argv.slice(3), '--help'] : process.argv.slice(2)
const [first, ...rest] = argv

if (first === 'version' || first === '--version') {
  process.stdout.write(`${packageVersion()}\n`)
} else if (first === 'serve') {
  if (rest.includes('--help') || rest.includes('-h')) {
    const { serveHelp } = await import('./serve-help.ts')
    process.stdout.write(serveHelp())
  } else if (rest.length > 0) {
    // The arguments are not quoted: `--master-key <key>` is a likely guess at an option serve does not have.
    process.stderr.write('clubcred serve takes no arguments; it is configured by environment variables only: clubcred serve --help\n')
    process.exitCode = 2
  } else {
    const { serve } = await import('./node.ts')
    await serve()
  }
} else {
  const { runCli } = await import('./cli.ts')
  await runCli(argv)
}

/** The installed package's version: package.json is two folders up from dist/server/bin.js, one from server/bin.ts. */
function packageVersion(): string {
  for (const path of ['../../package.json', '../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version?: string }
      if (manifest.name === 'clubcred' && manifest.version) return manifest.version
    } catch {
      // Not this one: try the next.
    }
  }
  return 'unknown'
}
