/**
 * The served page's stylesheet: the chrome's look in miniature. It follows the person's colour
 * scheme by itself (`prefers-color-scheme`) and, framed by the chrome, the scheme and accent the
 * chrome says (`data-scheme` on the root, `--accent`), so a served app is never a white box in a
 * dark chrome.
 */
export const SERVED_PAGE_STYLE = [
  ':root{color-scheme:light dark;--bg:#fff;--surface:#fff;--sunken:#f0f0f2;--border:#e3e3e8;--text:#1b1b1f;--soft:#55555f;--accent:#4f46e5;--bad:#b91c1c}',
  '@media (prefers-color-scheme:dark){:root:not([data-scheme=light]){--bg:#131316;--surface:#1b1b20;--sunken:#1f1f24;--border:#2c2c33;--text:#ececf1;--soft:#b2b2bd;--accent:#818cf8;--bad:#f87171}}',
  ':root[data-scheme=dark]{color-scheme:dark;--bg:#131316;--surface:#1b1b20;--sunken:#1f1f24;--border:#2c2c33;--text:#ececf1;--soft:#b2b2bd;--bad:#f87171}',
  ':root[data-scheme=light]{color-scheme:light}',
  'body{margin:0;padding:16px;font:15px/1.5 system-ui,sans-serif;color:var(--text);background:var(--bg)}',
  'main{display:flex;flex-direction:column;gap:12px;max-width:720px}',
  '.stack,.form{display:flex;flex-direction:column;gap:10px}.stack>button,.form>button{align-self:flex-start}.row{display:flex;gap:8px;flex-wrap:wrap;align-items:flex-end}.grid{display:grid;gap:10px}',
  '.card{border:1px solid var(--border);background:var(--surface);border-radius:12px;padding:12px;display:flex;flex-direction:column;gap:10px}',
  'h2,h3,h4,h5,p{margin:0}h2{font-size:1.4rem}h3{font-size:1.1rem}',
  '.field{display:flex;flex-direction:column;gap:4px}.field label{font-size:.85rem;color:var(--soft)}',
  'input,textarea,select{font:inherit;color:var(--text);background:var(--surface);border:1px solid var(--border);border-radius:8px;padding:6px 10px}',
  'input:focus-visible,textarea:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}',
  '.button,button{font:inherit;padding:6px 12px;border-radius:8px;border:1px solid var(--border);background:var(--sunken);color:var(--text);cursor:pointer}',
  'button.link{background:none;border:0;color:var(--accent);padding:2px 6px;text-decoration:underline}',
  '.list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:4px}',
  '.item{display:flex;justify-content:space-between;align-items:center;gap:8px;padding:6px 10px;border:1px solid var(--border);border-radius:8px;background:var(--surface)}',
  '.empty{color:var(--soft)}a{color:var(--accent)}img{max-width:100%}hr{border:0;border-top:1px solid var(--border);width:100%}',
  '.check{display:flex;gap:8px;align-items:center}.table-wrap{overflow-x:auto}table{border-collapse:collapse}th,td{border:1px solid var(--border);padding:4px 8px;text-align:left}',
  '.outcome{font-size:.9rem;color:var(--soft);margin:0}.outcome.error{color:var(--bad)}',
  '.chart .bars{display:flex;align-items:flex-end;gap:6px;height:140px}.bar{flex:1;display:flex;flex-direction:column;justify-content:flex-end;height:100%}',
  '.bar .fill{background:var(--accent);border-radius:4px 4px 0 0}.bar-label{font-size:.75rem;text-align:center;color:var(--soft)}',
  '.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
].join('');
