import type { ReactNode } from 'react';

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
