import { escapeHtml } from '../../../core/util/escape-html.ts'

const MARKUP = Symbol('markup')

/** A piece of HTML that is safe to place as it is: built by `html` or named trusted with `trusted`. */
export interface Markup {
  readonly [MARKUP]: string
}

/** What a `${}` inside `html` may hold. Strings and numbers are escaped; `null`, `undefined` and `false` vanish. */
export type Interpolation = string | number | Markup | null | undefined | false | readonly Interpolation[]

/**
 * An HTML template in which every interpolated value is escaped with `escapeHtml` unless it is already
 * `Markup`, so that escaping is how the page is written rather than a step to remember. Attribute values
 * are always written quoted (`href="${url}"`), which is what `escapeHtml` protects.
 *
 * @example
 * html`<h1 title="${name}">${name}</h1>` // name "<b>" → <h1 title="&lt;b&gt;">&lt;b&gt;</h1>
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Markup {
  let out = strings[0]!
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1]!
  })
  return { [MARKUP]: out }
}

/** Marks text written by this code base itself (the style sheet) as markup. Never for data. */
export function trusted(text: string): Markup {
  return { [MARKUP]: text }
}

/** The text of `markup`. */
export function toHtml(markup: Markup): string {
  return markup[MARKUP]
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return ''
  if (Array.isArray(value)) return value.map(render).join('')
  if (typeof value === 'object') return (value as Markup)[MARKUP]
  return escapeHtml(String(value))
}
