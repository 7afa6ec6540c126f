/**
 * Hides the password of every `scheme://user:password@` in a text, and any `password=` query
 * parameter, so a database URL (or a message quoting one) can be logged.
 */
export function redactUrls(text: string): string {
  return text.replace(/(\w[\w+.-]*:\/\/[^:/@\s]*):[^@\s]*@/g, '$1:***@').replace(/([?&]password=)[^&\s]*/gi, '$1***');
}
