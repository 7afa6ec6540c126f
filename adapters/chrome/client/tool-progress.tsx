import { useEffect, useState } from 'react';
import type { UIMessage } from 'ai';
import { defined } from '../../../domain/defined.js';

/** What a running tool last said about itself. */
export interface Progress {
  readonly label: string;
  /** 0..1 when the tool knows how far along it is. */
  readonly fraction?: number;
}

/**
 * Progress parts of a message, by the call they belong to: any `data-*` part whose data names a
 * `toolCallId` and a `label` (a tool writes them with `context.writeData`, e.g.
 * `{type: 'data-progress', id: 'progress:<toolCallId>', data: {toolCallId, label, fraction}}`).
 * A part with an id replaces the earlier one, so the newest word wins.
 */
export function progressOf(parts: UIMessage['parts']): Map<string, Progress> {
  const found = new Map<string, Progress>();
  for (const part of parts) {
    if (!part.type.startsWith('data-')) continue;
    const data = (part as { data?: unknown }).data;
    if (typeof data !== 'object' || data === null) continue;
    const { toolCallId, label, fraction } = data as Record<string, unknown>;
    if (typeof toolCallId !== 'string' || typeof label !== 'string' || !label.trim()) continue;
    found.set(toolCallId, {
      label: label.slice(0, 300),
      ...defined({ fraction: typeof fraction === 'number' && fraction >= 0 && fraction <= 1 ? fraction : undefined }),
    });
  }
  return found;
}

/** When this page first saw each call running: the elapsed time survives re-renders and new parts. */
const firstSeen = new Map<string, number>();

/** A running call's progress: its latest label, a bar when it knows how far it is, and the time it has taken so far. */
export function ToolProgress({ toolCallId, progress }: { toolCallId: string; progress: Progress | undefined }) {
  if (!firstSeen.has(toolCallId)) firstSeen.set(toolCallId, performance.now());
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(performance.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.floor((now - firstSeen.get(toolCallId)!) / 1000));
  return (
    <div className="tool-progress" role="status" data-tool-progress={toolCallId}>
      <span className="tool-progress-label">{progress?.label ?? 'Working…'}</span>
      {progress?.fraction !== undefined ? (
        <progress className="tool-progress-bar" max={1} value={progress.fraction} aria-label="Progress" />
      ) : null}
      <span className="tool-progress-time" aria-label={`${seconds} seconds so far`}>
        {elapsed(seconds)}
      </span>
    </div>
  );
}

function elapsed(seconds: number): string {
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}
