import { z } from 'zod';
import { isoTime, nextCursor, UiMessage } from './common-shapes.js';

export const ThreadSummary = z.object({ id: z.string(), title: z.string(), updatedAt: isoTime }).meta({ id: 'ThreadSummary' });

export const ThreadMatch = z
  .object({
    snippet: z.string().describe('Plain text (never markup) cut around the match, with `…` where the title or message goes on.'),
    highlights: z
      .array(z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }))
      .describe('The matched words in `snippet`, to show highlighted: UTF-16 offsets (JavaScript string indices), `end` exclusive.'),
    messageId: z.string().optional().describe('The message the snippet is from; absent when it is from the title.'),
  })
  .meta({ id: 'ThreadMatch', description: 'Where a search found its words in the thread.' });

export const ThreadListItem = ThreadSummary.extend({
  match: ThreadMatch.optional().describe('With `q` only: the best stretch of the title or a message holding the words.'),
}).meta({ id: 'ThreadListItem' });

export const ThreadList = z
  .object({ threads: z.array(ThreadListItem), nextCursor })
  .meta({ id: 'ThreadList', description: 'Newest first; with `q`, best match first.' });

export const MessageVersions = z
  .object({
    messageId: z.string().describe('The shown message that has other versions: the first message of the version shown.'),
    index: z.number().int().min(0).describe('Which version is shown, from 0 (the oldest).'),
    count: z.number().int().min(2).describe('How many versions there are.'),
  })
  .meta({
    id: 'MessageVersions',
    description: 'A message regenerate or edit and resend replaced: every version is kept, and the thread shows one.',
  });

export const ThreadDetail = z
  .object({
    id: z.string(),
    title: z.string(),
    messages: z.array(UiMessage),
    versions: z
      .array(MessageVersions)
      .describe(
        'The shown messages that have other versions, in the order of `messages`; switch with `POST /threads/:id/messages/:messageId/versions`.',
      ),
  })
  .meta({ id: 'Thread' });

export const Created = z.object({ id: z.string() }).meta({ id: 'Created' });

export const Stopped = z.object({ stopped: z.boolean() }).meta({ id: 'TurnStopped' });
