/**
 * Puts text on the clipboard: the Clipboard API where the page may use it (a secure context with
 * the permission), else a hidden field copied the old way, so copying works on plain-http hosts too.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not allowed here: fall back below.
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  try {
    document.execCommand('copy');
  } finally {
    field.remove();
  }
}
