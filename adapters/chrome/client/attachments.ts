import { WIRE, WireError } from './wire.js';

/** A file attached in the composer once its upload answered: the AI SDK's own file part. */
export interface AttachedFile {
  readonly type: 'file';
  readonly mediaType: string;
  readonly url: string;
  readonly filename: string;
}

/**
 * Uploads one file into the thread (`POST {wire}/threads/:id/files`). The body is the file itself,
 * sent as its own type, or as `application/octet-stream` with the type in the query when it is one
 * of the form types the upload refuses (plain text) or the browser does not know it.
 */
export async function uploadFile(threadId: string, file: File): Promise<AttachedFile> {
  const own = file.type || 'application/octet-stream';
  const formType = /^(text\/plain|multipart\/form-data|application\/x-www-form-urlencoded)\b/.test(own);
  const query = new URLSearchParams({ filename: file.name || 'pasted' });
  if (formType) query.set('type', own);
  let response: Response;
  try {
    response = await fetch(`${WIRE}/threads/${encodeURIComponent(threadId)}/files?${query}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': formType ? 'application/octet-stream' : own, accept: 'application/json' },
      body: file,
    });
  } catch {
    throw new WireError(0, 'offline', 'Porter could not be reached. Check your connection and try again.');
  }
  const answer = (await response.json().catch(() => null)) as {
    url?: string;
    mediaType?: string;
    filename?: string;
    error?: { code: string; message: string };
  } | null;
  if (!response.ok || !answer?.url || !answer.mediaType)
    throw new WireError(response.status, answer?.error?.code ?? 'internal', answer?.error?.message ?? `Porter answered ${response.status}`);
  return { type: 'file', mediaType: answer.mediaType, url: answer.url, filename: answer.filename ?? file.name };
}
