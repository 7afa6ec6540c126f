import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../ports/store.js';
import { InvalidInput } from '../../../domain/errors.js';

/** Position after the last item of a page: newest-first order is (createdAt desc, id desc). */
export interface CursorPosition {
  readonly createdAt: number;
  readonly id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): CursorPosition | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === 'string') {
      return { createdAt: parsed[0] as number, id: parsed[1] };
    }
  } catch {
    // fall through: a malformed cursor is the caller's mistake
  }
  throw new InvalidInput('The cursor is not one this list produced', [{ path: 'cursor', message: 'unrecognized cursor' }]);
}

export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InvalidInput(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, [{ path: 'limit', message: 'out of range' }]);
  }
  return limit;
}

/** True when (createdAt, id) sorts strictly after the cursor in newest-first order. */
export function isAfter(position: CursorPosition, createdAt: number, id: string): boolean {
  return createdAt < position.createdAt || (createdAt === position.createdAt && id < position.id);
}
