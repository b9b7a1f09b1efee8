import { variablesHelp } from './environment.ts'

/** `clubcred serve --help`: what serve does, and every variable it reads from the one table. */
export function serveHelp(): string {
  return `usage: clubcred serve

Starts the server: every HTTP surface on one port, the signing worker, and on an empty storage the demo
club, whose API client is printed once to stderr. It is configured by the environment only; at start every
wrong variable is named at once (exit 1), and an unknown CLUBCRED_* variable gets a warning.
SIGINT or SIGTERM closes it.

environment:
${variablesHelp()}
`
}
