import { z } from 'zod';

const dress = z.object({
  title: z.string().min(1).catch('Porter'),
  logoUrl: z.string().nullable().catch(null),
  suggestions: z
    .array(z.object({ label: z.string(), text: z.string() }))
    .nullable()
    .catch(null),
});

/** What the serving host dressed the chrome in (`serveChrome` options, written into the page as `#porter-chrome`). */
function read(): z.output<typeof dress> {
  try {
    return dress.parse(JSON.parse(document.getElementById('porter-chrome')?.textContent ?? '{}'));
  } catch {
    return { title: 'Porter', logoUrl: null, suggestions: null };
  }
}

const config = read();

/** The assistant's name as the host calls it (default Porter). */
export const NAME = config.title;
/** The host's brand mark, or null for the name's initial. */
export const LOGO = config.logoUrl;
/** What the host's home screen offers to try, or null to offer the host's own tools. */
export const HOST_SUGGESTIONS = config.suggestions;
