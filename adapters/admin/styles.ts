/** The console's style sheet, served as a file (`style-src 'self'`: no inline style anywhere). */
export const ADMIN_CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#f2f4f7;color:#1b1f24;line-height:1.6;
font-family:system-ui,-apple-system,"Apple SD Gothic Neo","Malgun Gothic","Noto Sans KR","Segoe UI",Roboto,sans-serif;word-break:keep-all;overflow-wrap:anywhere}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 1.25rem;background:#1b1f24;color:#fff}
header p{margin:0}
header form{margin:0}
header a{color:#fff;margin-right:.75rem}
.hint{margin:0 0 .25rem;color:#5b6472;font-size:.85rem}
fieldset{border:1px solid #e6e9ef;border-radius:10px;margin:.75rem 0;padding:.25rem .75rem .75rem}
.check{display:flex;gap:.5rem;align-items:center;font-weight:500}
.check input{width:auto}
.check>span{display:contents}
a.button{display:inline-block;padding:.45rem .9rem;border-radius:8px;background:#1849a9;color:#fff;text-decoration:none;font-weight:600}
main{max-width:48rem;margin:1.5rem auto;padding:0 1rem}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(16,24,40,.12);padding:1.25rem;margin-bottom:1rem}
h1{margin:0 0 .75rem;font-size:1.4rem}
h1 span,h2 span,label span,.en{color:#5b6472;font-weight:500;font-size:.9em}
h2{margin:0 0 .5rem;font-size:1.1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input,textarea,select{width:100%;padding:.55rem .65rem;border:1px solid #c9d0db;border-radius:8px;font:inherit}
input[aria-invalid=true],textarea[aria-invalid=true],select[aria-invalid=true]{border-color:#b3261e}
input[type=color]{width:4.5rem;height:2.75rem;padding:.25rem;cursor:pointer}
button{margin-top:1rem;padding:.55rem 1rem;border-radius:8px;border:1px solid #1849a9;background:#1849a9;color:#fff;font:inherit;font-weight:600;cursor:pointer}
header button{margin:0;background:transparent;border-color:#fff}
.error{margin:.25rem 0 0;color:#b3261e;font-size:.9rem}
.filter{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}.filter>div{flex:1 1 12rem}
.notice{padding:.75rem 1rem;border-radius:8px;background:#fdecea;color:#8c1d18}
.done{padding:.75rem 1rem;border-radius:8px;background:#e7f5ec;color:#0b5d2b}
.counts{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:.75rem;margin:0}
.counts div{padding:.75rem;border-radius:10px;background:#f7f8fa}
.counts dt{color:#5b6472;font-size:.85rem}
.counts dd{margin:0;font-size:1.5rem;font-weight:700}
table{width:100%;border-collapse:collapse;font-size:.9rem}
th,td{text-align:left;padding:.4rem .3rem;border-bottom:1px solid #e6e9ef}
.row-error th,.row-error td{background:#fdf3f2}
progress{width:100%;height:1.25rem}
:focus-visible{outline:3px solid #1849a9;outline-offset:2px}
.subnav{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:0 0 1rem}
.subnav a[aria-current=page]{font-weight:700;text-decoration:none;color:#1b1f24}
.secret input{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f7f8fa}
button.small{margin:0;padding:.25rem .6rem;font-size:.85rem}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
[hidden]{display:none!important}
.passkey{margin-top:1.25rem;padding-top:.75rem;border-top:1px solid #e6e9ef}
.passkey-status{margin:.5rem 0 0}
td form button{margin-top:.25rem}
td input.pick{width:1.25rem;height:1.25rem;margin:0}
img.preview{display:block;max-width:100%;height:auto;border:1px solid #e6e9ef;border-radius:8px;background:#fff}
form.inline{margin:0}
form.inline button{margin:0;padding:.25rem .6rem}
header :focus-visible{outline-color:#fff}
.skip{position:absolute;left:.75rem;top:-4rem;z-index:1;padding:.5rem .9rem;border-radius:8px;background:#fff;color:#1849a9;font-weight:600}
.skip:focus{top:.75rem}
main:focus{outline:none}
svg.chart{display:block;width:100%;height:auto;max-width:40rem}
ul.legend{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;padding:0;margin:.25rem 0}
ul.activity{list-style:none;padding:0}
ul.activity li{padding:.3rem 0;border-bottom:1px solid #e6e9ef}
fieldset.checks{border:0;padding:0;margin:.5rem 0}
`.trim()
