import { aggregateOf } from '../aggregate.js';

export interface UploadedFilePrimitives {
  readonly id: string;
  readonly owner: string;
  /** The thread it was attached in: the file goes when the thread goes. */
  readonly thread: string;
  /** As the person named it (shown, never used as a path). */
  readonly filename: string;
  /** The type its bytes were sniffed as (or, for text, the declared text type its bytes fit). */
  readonly mediaType: string;
  readonly size: number;
  readonly createdAt: string;
}

/** A file a person attached to a message: its metadata; the bytes live in the file blobs under its id. */
export class UploadedFile extends aggregateOf<UploadedFilePrimitives>().reading(
  'id',
  'owner',
  'thread',
  'filename',
  'mediaType',
  'size',
  'createdAt',
) {
  private constructor(props: UploadedFilePrimitives) {
    super(props);
  }

  static stored(props: UploadedFilePrimitives): UploadedFile {
    return new UploadedFile({ ...props, filename: safeFilename(props.filename) });
  }

  static fromPrimitives(props: UploadedFilePrimitives): UploadedFile {
    return new UploadedFile(props);
  }

  /** Adopted with its anonymous session's threads. */
  movedTo(owner: string): UploadedFile {
    return this.with({ owner });
  }
}

/** A filename fit to show and to send on in a header: no path, no control characters, at most 200 characters. */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (clean || 'file').slice(0, 200);
}
