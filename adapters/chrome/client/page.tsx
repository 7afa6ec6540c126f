import type { ReactNode } from 'react';
import type { Loaded } from './use-load.js';
import { WireError, describeError } from './wire.js';

/** A page other than a conversation: a title, a line of explanation, actions, content. */
export function PageFrame({
  title,
  lede,
  actions,
  children,
}: {
  title: ReactNode;
  lede?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-title">{title}</h1>
        {actions ? <div className="header-actions">{actions}</div> : null}
      </header>
      <div className="page-body">
        {lede ? <p className="page-lede">{lede}</p> : null}
        {children}
      </div>
    </div>
  );
}

export function EmptyState({
  title,
  text,
  onRetry,
  children,
}: {
  title: string;
  text?: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="empty-state" role={onRetry ? 'alert' : undefined}>
      <h2>{title}</h2>
      {text ? <p>{text}</p> : null}
      {onRetry || children ? (
        <div className="empty-actions">
          {onRetry ? (
            <button type="button" className="button secondary" onClick={onRetry}>
              Try again
            </button>
          ) : null}
          {children}
        </div>
      ) : null}
    </div>
  );
}

/** What went wrong where the person acted (a form, a card), announced; nothing while nothing has. */
export function InlineError({ error }: { error: string | null }) {
  return error ? (
    <p className="inline-error" role="alert">
      {error}
    </p>
  ) : null;
}

/**
 * The page of one thing (an app, a run) that could not be loaded: not found (`gone` says why it may
 * be), or what else went wrong, with Try again.
 */
export function OpenFailed({ noun, gone, loaded }: { noun: string; gone: string; loaded: Loaded<unknown> }) {
  const missing = loaded.error instanceof WireError && loaded.error.code === 'not-found';
  return (
    <PageFrame title={noun}>
      <EmptyState
        title={missing ? `${noun} not found` : `This ${noun.toLowerCase()} could not be opened`}
        text={missing ? gone : describeError(loaded.error)}
        onRetry={loaded.reload}
      />
    </PageFrame>
  );
}

/** What the page says after an action: an error is announced at once, news politely. */
export interface Notice {
  readonly tone: 'error' | 'info';
  readonly text: string;
}

/** The notice, if any; `children` (what to do about it) follow its text. */
export function NoticeBanner({ notice, children }: { notice: Notice | null; children?: ReactNode }) {
  return notice ? (
    <p className={`banner ${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
      {notice.text}
      {children === undefined ? null : <> {children}</>}
    </p>
  ) : null;
}
