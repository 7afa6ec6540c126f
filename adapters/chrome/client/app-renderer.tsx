import { createContext, useContext, useId, type FormEvent, type ReactNode } from 'react';
import type { AppView, ViewNode } from '../../../domain/apps/app-view.js';
import type { PropValue } from '../../../domain/apps/app-document.js';
import { safeUrl } from '../../../domain/apps/safe-url.js';
import { appPageKit } from '../../shared/app-page-kit.js';

/** A record of the app's own data, as the records routes answer. */
export interface AppRecord {
  readonly id: string;
  readonly data: unknown;
}

/**
 * What makes a rendered app live: its records and actions. Without one (a view streaming in a
 * chat) the tree is drawn as a preview and its controls do nothing.
 */
export interface AppRuntime {
  /** Records shown by a node bound to `bind`, or undefined while they load. */
  records(bind: string): ReadonlyArray<AppRecord> | undefined;
  /** Runs the action `action` with what the node `from` gathered (a form's fields, a record id…). */
  act(action: string, input: { record?: Record<string, unknown>; recordId?: string }, from: string): Promise<void>;
  /** What the last action started from node `nodeId` came to (a tool's result, an approval card), drawn beside it. */
  outcome?(nodeId: string): ReactNode;
}

const Runtime = createContext<AppRuntime | null>(null);
const { cell, summary, gatherFields, clearFields } = appPageKit();

/**
 * Draws an AppView. Nodes whose source has not arrived are skeletons; when a later update
 * completes them the same place swaps to the real node (keys are node ids, so nothing remounts).
 */
export function AppRenderer({ view, runtime }: { view: AppView; runtime?: AppRuntime }) {
  if (!view.root) return <div className="app-canvas">{view.status === 'generating' ? <Skeleton type={null} /> : null}</div>;
  return (
    <Runtime.Provider value={runtime ?? null}>
      <div className="app-canvas">
        <NodeView id={view.root} view={view} depth={0} />
      </div>
    </Runtime.Provider>
  );
}

const MAX_DEPTH = 64;

function NodeView({ id, view, depth }: { id: string; view: AppView; depth: number }): ReactNode {
  const node = view.nodes[id];
  if (!node || depth > MAX_DEPTH) return null;
  if (node.pending || node.type === null) return <Skeleton type={node.type} nodeId={id} />;
  const children = node.children.map((child) => <NodeView key={child} id={child} view={view} depth={depth + 1} />);
  return (
    <div className="app-node" data-node-id={id} data-node-type={node.type} style={{ display: 'contents' }}>
      <Leaf node={node} nodeId={id}>
        {children}
      </Leaf>
    </div>
  );
}

function Leaf({ node, nodeId, children }: { node: ViewNode; nodeId: string; children: ReactNode }): ReactNode {
  const p = node.props;
  const runtime = useContext(Runtime);
  const fieldId = useId();
  const text = str(p.text) ?? str(p.label) ?? str(p.title) ?? str(p.content) ?? str(p.value) ?? '';
  const name = str(p.name) ?? nodeId;
  const act = (input: Parameters<AppRuntime['act']>[1]) =>
    runtime && node.action ? runtime.act(node.action, input, nodeId) : Promise.resolve();
  const outcome = runtime?.outcome?.(nodeId) ?? null;

  switch (node.type) {
    case 'stack':
      return <div className="app-stack">{children}</div>;
    case 'row':
      return <div className="app-row">{children}</div>;
    case 'grid': {
      const columns = Math.min(Math.max(Math.round(num(p.columns) ?? 2), 1), 6);
      return (
        <div className="app-grid" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
          {children}
        </div>
      );
    }
    case 'card':
      return (
        <section className="app-card">
          {str(p.title) ? <h3 className="app-card-title">{str(p.title)}</h3> : null}
          {children}
        </section>
      );
    case 'heading': {
      const level = Math.min(Math.max(Math.round(num(p.level) ?? 2), 1), 4);
      const Tag = (['h2', 'h3', 'h4', 'h5'] as const)[level - 1]!;
      return <Tag className={`app-heading level-${level}`}>{text}</Tag>;
    }
    case 'text':
      return <p className="app-text">{text}</p>;
    case 'button':
      return (
        <>
          <button
            type={node.action ? 'button' : 'submit'}
            className="button secondary app-button"
            disabled={!runtime}
            onClick={
              node.action
                ? (event) => {
                    // A button outside a form takes the fields around it (an input beside an "Add").
                    const scope = event.currentTarget.closest<HTMLElement>('.app-form, .app-card, .app-row, .app-stack, .app-canvas');
                    const record = scope ? gatherFields(scope) : {};
                    void act(Object.keys(record).length > 0 ? { record } : {}).then(() => scope && clearFields(scope));
                  }
                : undefined
            }
          >
            {text || 'Button'}
          </button>
          {outcome}
        </>
      );
    case 'input':
      return (
        <div className="app-field">
          <FieldLabel htmlFor={fieldId} label={str(p.label)} fallback={str(p.placeholder) ?? name} />
          <input
            id={fieldId}
            name={name}
            type={inputType(p.inputType ?? p.kind)}
            placeholder={str(p.placeholder) ?? ''}
            required={p.required === true}
            disabled={!runtime}
          />
        </div>
      );
    case 'textarea':
      return (
        <div className="app-field">
          <FieldLabel htmlFor={fieldId} label={str(p.label)} fallback={str(p.placeholder) ?? name} />
          <textarea id={fieldId} name={name} rows={3} placeholder={str(p.placeholder) ?? ''} disabled={!runtime} />
        </div>
      );
    case 'checkbox':
      return (
        <label className="app-check">
          <input type="checkbox" name={name} defaultChecked={p.checked === true} disabled={!runtime} />
          <span>{str(p.label) ?? text}</span>
        </label>
      );
    case 'select': {
      const options = list(p.options);
      return (
        <div className="app-field">
          <FieldLabel htmlFor={fieldId} label={str(p.label)} fallback={name} />
          <select id={fieldId} name={name} disabled={!runtime}>
            {options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </div>
      );
    }
    case 'list':
      return (
        <BoundList node={node} nodeId={nodeId}>
          {children}
        </BoundList>
      );
    case 'table':
      return <BoundTable node={node} />;
    case 'image': {
      // The served app's static server draws links and images by the same rule.
      const src = safeUrl(str(p.src), true, location.href);
      return src ? (
        <img className="app-image" src={src} alt={str(p.alt) ?? ''} loading="lazy" />
      ) : (
        <div className="app-image placeholder">{str(p.alt) ?? 'Image'}</div>
      );
    }
    case 'link': {
      const href = safeUrl(str(p.href) ?? str(p.url), false, location.href);
      return href ? (
        <a className="app-link" href={href} target="_blank" rel="noopener noreferrer">
          {text || href}
        </a>
      ) : (
        <span className="app-link">{text}</span>
      );
    }
    case 'divider':
      return <hr className="app-divider" />;
    case 'form': {
      const submit = async (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        const form = event.currentTarget;
        await act({ record: gatherFields(form) });
        clearFields(form);
      };
      return (
        <form className="app-form" onSubmit={(event) => void submit(event)}>
          {str(p.title) ? <h3 className="app-card-title">{str(p.title)}</h3> : null}
          {children}
          {outcome}
        </form>
      );
    }
    case 'chart':
      return <BoundChart node={node} />;
    default:
      return <div className="app-stack">{children}</div>;
  }
}

function BoundList({ node, nodeId, children }: { node: ViewNode; nodeId: string; children: ReactNode }) {
  const runtime = useContext(Runtime);
  const records = node.bind && runtime ? runtime.records(node.bind) : undefined;
  const empty = str(node.props.empty) ?? 'Nothing here yet.';
  if (!node.bind)
    return <ul className="app-list">{Array.isArray(children) ? children.map((child, i) => <li key={i}>{child}</li>) : children}</ul>;
  if (!runtime)
    return (
      <p className="app-empty preview">
        {str(node.props.empty) ? `${empty} (records show when the app is open)` : 'Records show here when the app is open.'}
      </p>
    );
  if (records === undefined)
    return (
      <ul className="app-list" aria-busy="true">
        <li className="skeleton-line" />
      </ul>
    );
  if (records.length === 0) return <p className="app-empty">{empty}</p>;
  return (
    <>
      <ul className="app-list">
        {records.map((record) => (
          <li key={record.id} className="app-list-item">
            <span>{summary(record.data)}</span>
            {node.action ? (
              <button type="button" className="link-button" onClick={() => void runtime.act(node.action!, { recordId: record.id }, nodeId)}>
                {str(node.props.actionLabel) ?? 'Remove'}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {runtime.outcome?.(nodeId) ?? null}
    </>
  );
}

function BoundTable({ node }: { node: ViewNode }) {
  const runtime = useContext(Runtime);
  const records = node.bind && runtime ? runtime.records(node.bind) : undefined;
  const columns = list(node.props.columns);
  const keys =
    columns.length > 0 ? columns : records && records[0] && isObject(records[0].data) ? Object.keys(records[0].data).slice(0, 6) : [];
  return (
    <div className="app-table-wrap">
      <table className="app-table">
        {str(node.props.caption) ? <caption>{str(node.props.caption)}</caption> : null}
        <thead>
          <tr>
            {keys.map((key) => (
              <th key={key} scope="col">
                {key}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {(records ?? []).map((record) => (
            <tr key={record.id}>
              {keys.map((key) => (
                <td key={key}>{isObject(record.data) ? cell(record.data[key]) : ''}</td>
              ))}
            </tr>
          ))}
          {records === undefined ? (
            <tr>
              <td colSpan={Math.max(keys.length, 1)}>
                <span className="skeleton-line" />
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

function BoundChart({ node }: { node: ViewNode }) {
  const runtime = useContext(Runtime);
  const records = node.bind && runtime ? runtime.records(node.bind) : undefined;
  const valueKey = str(node.props.valueKey) ?? 'value';
  const labelKey = str(node.props.labelKey) ?? 'label';
  const points = (records ?? []).flatMap((r) =>
    isObject(r.data) && typeof r.data[valueKey] === 'number'
      ? [{ label: String(r.data[labelKey] ?? ''), value: r.data[valueKey] as number }]
      : [],
  );
  const max = Math.max(1, ...points.map((p) => p.value));
  return (
    <figure className="app-chart">
      {str(node.props.title) ? <figcaption>{str(node.props.title)}</figcaption> : null}
      {points.length === 0 ? (
        <div className="app-chart-empty">No data to chart yet.</div>
      ) : (
        <div className="app-bars">
          {points.map((point, index) => (
            <div key={index} className="app-bar" title={`${point.label}: ${point.value}`}>
              <span className="app-bar-fill" style={{ height: `${(point.value / max) * 100}%` }} />
              <span className="app-bar-label">{point.label}</span>
            </div>
          ))}
        </div>
      )}
    </figure>
  );
}

/** A visible label, or (when the node has none) one for screen readers only. */
function FieldLabel({ htmlFor, label, fallback }: { htmlFor: string; label: string | undefined; fallback: string }) {
  return (
    <label htmlFor={htmlFor} className={label ? undefined : 'visually-hidden'}>
      {label ?? fallback}
    </label>
  );
}

/** A placeholder the size of what is coming, shimmering until the node's source arrives. */
function Skeleton({ type, nodeId }: { type: string | null; nodeId?: string }) {
  const shape =
    type === 'heading'
      ? 'heading'
      : type === 'button'
        ? 'button'
        : type === 'input' || type === 'select' || type === 'textarea'
          ? 'field'
          : type === 'text' || type === 'link'
            ? 'line'
            : 'block';
  return <div className={`app-skeleton ${shape}`} data-node-id={nodeId} data-pending="true" aria-hidden="true" />;
}

function str(value: PropValue | undefined): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function num(value: PropValue | undefined): number | undefined {
  return typeof value === 'number'
    ? value
    : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : undefined;
}

function list(value: PropValue | undefined): string[] {
  return typeof value === 'string'
    ? value
        .split(/[,|]/)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

function inputType(value: PropValue | undefined): string {
  return typeof value === 'string' && ['text', 'number', 'date', 'email', 'url', 'time', 'tel'].includes(value) ? value : 'text';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
