import type { UIMessage } from 'ai';

/** The mark Porter stores on a message whose turn did not finish (`metadata.interrupted`). */
export interface Interruption {
  readonly reason: string;
  readonly message: string;
}

/** The message's interruption mark, or null. */
export function interruptionOf(message: UIMessage | undefined): Interruption | null {
  const metadata = message?.metadata;
  if (typeof metadata !== 'object' || metadata === null || !('interrupted' in metadata)) return null;
  const mark = (metadata as { interrupted?: unknown }).interrupted;
  if (typeof mark !== 'object' || mark === null) return null;
  const { reason, message: said } = mark as { reason?: unknown; message?: unknown };
  return typeof reason === 'string' && typeof said === 'string' ? { reason, message: said } : null;
}

/**
 * Said under a message whose turn did not finish (the model failed, the instance writing it
 * stopped…), as the stored thread marks it, so it shows after a reload too: red, its cause said,
 * and (on the last message, when no turn runs) Retry.
 */
export function InterruptedNote({
  interruption,
  kept,
  onRetry,
}: {
  interruption: Interruption;
  kept: boolean;
  onRetry?: (() => void) | undefined;
}) {
  return (
    <div className="message-error interrupted-note" role="alert">
      <p>
        <strong className="error-cause">Not finished.</strong> {interruption.message}
        {kept ? ' What it wrote before is kept above.' : ''}
      </p>
      {onRetry ? (
        <button type="button" className="button small primary" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
