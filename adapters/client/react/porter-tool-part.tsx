'use client';
import { useId, type ComponentPropsWithoutRef, type ComponentType, type ReactNode } from 'react';
import { usePorterToolPart, type PorterToolView, type UsePorterToolPartOptions } from './porter-tool-view.js';

/** The parts of `PorterToolPart` a class can be given to; each element also carries `data-slot="porter-tool-<slot>"` (the root `porter-tool`). */
export type PorterToolPartSlot =
  | 'root'
  | 'header'
  | 'name'
  | 'state'
  | 'section'
  | 'label'
  | 'value'
  | 'error'
  | 'approval'
  | 'preview'
  | 'risk'
  | 'egress'
  | 'actions'
  | 'approve'
  | 'deny';

/** A class per slot (Tailwind utilities, CSS modules, a design system's classes). */
export type PorterToolPartClassNames = Partial<Record<PorterToolPartSlot, string>>;

/** Components to draw with instead of plain elements: your design system's button, a JSON viewer. */
export interface PorterToolPartComponents {
  /** Drawn for Approve and Deny; it gets a real button's props (type, onClick, disabled, aria-*, data-*). */
  readonly Button?: ComponentType<ComponentPropsWithoutRef<'button'>> | undefined;
  /** Draws a call's input or result; default: indented JSON in a `<pre>`. */
  readonly Value?: ComponentType<{ value: unknown; kind: 'input' | 'output'; className?: string | undefined }> | undefined;
}

export interface PorterToolPartProps extends UsePorterToolPartOptions {
  /** A class for the root element (added to `classNames.root`). */
  readonly className?: string | undefined;
  readonly classNames?: PorterToolPartClassNames | undefined;
  readonly components?: PorterToolPartComponents | undefined;
  /** Show the call's input (default true). */
  readonly showInput?: boolean | undefined;
  /** Draw it all yourself: receives what `usePorterToolPart` knows, approve / deny included. */
  readonly children?: ((tool: PorterToolView) => ReactNode) | undefined;
}

/**
 * One tool call of a message: its name and state, its input, its result or error and, while it
 * waits for the person (`approval-requested`), Porter's preview and risk with Approve and Deny,
 * which call `onApprovalResponse({ id, approved })`. Unstyled: every element has a `data-slot`
 * (and the root `data-state` and `data-tool`) to style by, or a class from `classNames`;
 * `components` swaps in your own Button or value view, and `children` as a function draws it all.
 */
export function PorterToolPart({
  className,
  classNames = {},
  components = {},
  showInput = true,
  children,
  ...options
}: PorterToolPartProps): ReactNode {
  const tool = usePorterToolPart(options);
  const previewId = useId();
  if (children) return children(tool);
  const Button = components.Button ?? 'button';
  const Value = components.Value ?? JsonValue;
  const { labels, approval } = tool;
  const card = approval?.card ?? null;
  return (
    <div
      className={join(className, classNames.root)}
      data-slot="porter-tool"
      data-tool={tool.toolName}
      data-state={tool.state}
      {...(card ? { 'data-risk': card.risk } : {})}
    >
      <div {...slot(classNames, 'header')}>
        <code {...slot(classNames, 'name')}>{tool.title ?? tool.toolName}</code>{' '}
        <span {...slot(classNames, 'state')}>{tool.stateLabel}</span>
      </div>
      {showInput && tool.input !== undefined ? (
        <Section label={labels.input} kind="input" value={tool.input} classNames={classNames} Value={Value} />
      ) : null}
      {tool.state === 'output-available' ? (
        <Section label={labels.output} kind="output" value={tool.output} classNames={classNames} Value={Value} />
      ) : null}
      {tool.errorText !== undefined ? (
        <div {...slot(classNames, 'section')} data-section="error">
          <span {...slot(classNames, 'label')}>{labels.error}</span>
          <p {...slot(classNames, 'error')}>{tool.errorText}</p>
        </div>
      ) : null}
      {approval ? (
        <div role="group" aria-label={labels.approvalNeeded.replace('{tool}', tool.toolName)} {...slot(classNames, 'approval')}>
          {card?.preview ? (
            <p {...slot(classNames, 'preview')} id={previewId}>
              {card.preview}
            </p>
          ) : null}
          {tool.riskLabel ? (
            <span {...slot(classNames, 'risk')} data-risk={card?.risk}>
              {tool.riskLabel}
            </span>
          ) : null}
          {card?.egress ? <span {...slot(classNames, 'egress')}>{labels.egress}</span> : null}
          <div {...slot(classNames, 'actions')}>
            <Button
              type="button"
              {...slot(classNames, 'deny')}
              disabled={tool.answering || !tool.canAnswer}
              onClick={tool.deny}
              {...(card?.preview ? { 'aria-describedby': previewId } : {})}
            >
              {labels.deny}
            </Button>
            <Button
              type="button"
              {...slot(classNames, 'approve')}
              disabled={tool.answering || !tool.canAnswer}
              onClick={tool.approve}
              {...(card?.preview ? { 'aria-describedby': previewId } : {})}
            >
              {labels.approve}
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function Section({
  label,
  kind,
  value,
  classNames,
  Value,
}: {
  label: string;
  kind: 'input' | 'output';
  value: unknown;
  classNames: PorterToolPartClassNames;
  Value: NonNullable<PorterToolPartComponents['Value']>;
}) {
  return (
    <div {...slot(classNames, 'section')} data-section={kind}>
      <span {...slot(classNames, 'label')}>{label}</span>
      <Value value={value} kind={kind} className={classNames.value} />
    </div>
  );
}

/** A value as indented JSON (a string as itself). */
function JsonValue({ value, className }: { value: unknown; kind: 'input' | 'output'; className?: string | undefined }) {
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  return (
    <pre className={className} data-slot="porter-tool-value">
      {text}
    </pre>
  );
}

/** A slot's class and its `data-slot` (`porter-tool-<slot>`), to style by either. */
function slot(classNames: PorterToolPartClassNames, name: PorterToolPartSlot) {
  return { className: classNames[name], 'data-slot': `porter-tool-${name}` };
}

function join(...classes: Array<string | undefined>): string | undefined {
  const joined = classes.filter(Boolean).join(' ');
  return joined || undefined;
}
