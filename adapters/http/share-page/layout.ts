import { html, toHtml, type Markup } from './html.ts'
import { styles } from './styles.ts'

export interface DocumentParts {
  title: string
  /** Extra `<head>` content (social meta). */
  head?: Markup | null
  body: Markup
}

/**
 * The HTML5 document around a share-host page: Korean first (`lang="ko"`, English marked `lang="en"` where
 * it appears), phone viewport, the inline style sheet, and no inline script (the share page loads its one
 * script file, `/share.js`, from its body). `noindex`: the page carries
 * the recipient's name and is for the recipient to hand out, not for search engines to collect.
 */
export function htmlDocument({ title, head = null, body }: DocumentParts): string {
  return (
    '<!doctype html>\n' +
    toHtml(html`<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light">
<title>${title}</title>
${head}
<style>${styles}</style>
</head>
<body>
${body}
</body>
</html>
`)
  )
}
