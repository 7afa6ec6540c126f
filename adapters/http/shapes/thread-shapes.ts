import { z } from 'zod';
import { isoTime, nextCursor, UiMessage } from './common-shapes.js';

export const ThreadSummary = z.object({ id: z.string(), title: z.string(), updatedAt: isoTime }).meta({ id: 'ThreadSummary' });

export const ThreadList = z
  .object({ threads: z.array(ThreadSummary), nextCursor })
  .meta({ id: 'ThreadList', description: 'Newest first.' });

export const ThreadDetail = z.object({ id: z.string(), title: z.string(), messages: z.array(UiMessage) }).meta({ id: 'Thread' });

export const Created = z.object({ id: z.string() }).meta({ id: 'Created' });

export const Stopped = z.object({ stopped: z.boolean() }).meta({ id: 'TurnStopped' });
