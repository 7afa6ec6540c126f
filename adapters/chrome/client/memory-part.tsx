import { z } from 'zod';
import { hrefOf } from './route.js';

/** The `data` of a `data-porter-memory` part (application/memory/memory-tools.ts). */
const memoryPart = z.object({ action: z.enum(['saved', 'forgotten']), memoryId: z.string(), text: z.string() });

/** What the agent just remembered (or forgot) about the person, said in the conversation, with a way to change it. */
export function MemoryPart({ data }: { data: unknown }) {
  const parsed = memoryPart.safeParse(data);
  if (!parsed.success) return null;
  const { action, text, memoryId } = parsed.data;
  return (
    <p className="memory-part" data-memory-part={action} data-memory-id={memoryId}>
      <span className="memory-part-label">{action === 'saved' ? 'Remembered:' : 'Forgot:'}</span>{' '}
      <span className="memory-part-text">{text}</span> <a href={hrefOf({ name: 'memories' })}>Manage memories</a>
    </p>
  );
}
