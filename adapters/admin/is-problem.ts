import { ProblemError } from '../../core/errors.ts'

/** Whether `error` is core's refusal with one of `codes`: a page shows those, and rethrows anything else. */
export const isProblem = (error: unknown, ...codes: string[]): error is ProblemError => error instanceof ProblemError && codes.includes(error.code)
