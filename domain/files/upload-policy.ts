/**
 * What a host accepts as uploads (`uploads` option): the media types (exact, or `type/*`), the
 * size of one file, how many files one message may carry, and which of them the model reads as
 * they are (the rest reach it as text, or are refused).
 */
export interface UploadPolicy {
  readonly accept: ReadonlyArray<string>;
  readonly maxBytes: number;
  readonly maxFilesPerMessage: number;
  readonly modelReads: ReadonlyArray<string>;
}

export const DEFAULT_UPLOAD_POLICY: UploadPolicy = {
  accept: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/markdown', 'text/csv'],
  maxBytes: 10 * 1024 * 1024,
  maxFilesPerMessage: 5,
  modelReads: ['image/*', 'application/pdf'],
};

/** True when `mediaType` is one of `patterns` (an exact type, or `type/*`). */
export function matchesMediaType(patterns: ReadonlyArray<string>, mediaType: string): boolean {
  const type = mediaType.toLowerCase();
  return patterns.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.endsWith('/*') ? type.startsWith(p.slice(0, -1)) : p === type;
  });
}

/** Text types Porter hands the model as text (their bytes hold no signature to sniff). */
export function isTextType(mediaType: string): boolean {
  return mediaType.toLowerCase().startsWith('text/');
}

/** The declared type without parameters (`text/plain; charset=utf-8` is `text/plain`). */
export function bareMediaType(declared: string | undefined): string {
  return (declared ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * What the bytes are, judged from what they hold (`sniffed`: a binary signature, or null when they
 * have none) and what the client said (`declared`). A signature always wins; bytes without one are
 * text only when they decode as text (`looksLikeText`) and the client said a text type; anything
 * else is unknown (null), which no policy accepts. So a PNG sent as `text/plain` is a PNG, and an
 * executable sent as `image/png` is refused.
 */
export function judgedMediaType(sniffed: string | null, declared: string, looksLikeText: boolean): string | null {
  if (sniffed) return sniffed;
  if (looksLikeText && isTextType(declared)) return declared;
  return null;
}

/** How the model is shown a file: as it is, as text (a text file, or a PDF's extracted text), or not at all. */
export type ModelForm = 'file' | 'text' | 'pdf-text' | 'unreadable';

export function modelFormOf(policy: UploadPolicy, mediaType: string): ModelForm {
  if (isTextType(mediaType)) return 'text';
  if (matchesMediaType(policy.modelReads, mediaType)) return 'file';
  if (mediaType === 'application/pdf') return 'pdf-text';
  return 'unreadable';
}
