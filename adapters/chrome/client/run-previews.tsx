import { RiskBadge } from './risk-badge.js';
import type { RunPreview } from './run-shapes.js';

/** What a dry run would have done: each write or call reaching outside it previewed instead of making. */
export function RunPreviews({ previews, live }: { previews: ReadonlyArray<RunPreview>; live: boolean }) {
  return (
    <section className="run-section" aria-label="What it would have done">
      <h2 className="section-heading">What it would have done</h2>
      {previews.length === 0 ? (
        <p className="muted">{live ? 'Nothing yet.' : 'Nothing: it made no change and reached nothing outside.'}</p>
      ) : (
        <ol className="preview-list">
          {previews.map((p) => (
            <li key={p.toolCallId} className="preview" data-tool={p.tool}>
              <span className="preview-text">{p.preview}</span>
              <span className="preview-meta">
                <code>{p.tool}</code> <RiskBadge risk={p.risk} egress={p.egress} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
