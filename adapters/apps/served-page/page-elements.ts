/** A new element of the page, with its class and text when given. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Says `text` just after `anchor` (a status, or an alert for an error), in place of what was said there before. */
export function notice(anchor: HTMLElement, text: string, tone: 'info' | 'error'): void {
  const next = anchor.nextElementSibling;
  if (next && next.classList.contains('outcome')) next.remove();
  const note = el('p', `outcome ${tone}`, text);
  note.setAttribute('role', tone === 'error' ? 'alert' : 'status');
  anchor.after(note);
}
