import { Icon } from './icon.js';

/** Which version of a message is shown (from 0) and how many there are, as the wire says (`versions`). */
export interface ShownVersion {
  readonly index: number;
  readonly count: number;
}

/**
 * "‹ 2 / 3 ›" on a message that regenerate or edit replaced: the earlier versions, one click away.
 * At either end the arrow says it cannot go on (`aria-disabled`) yet keeps focus, so a person
 * stepping through never loses their place. Without `onShow` (a turn runs) it only tells.
 */
export function VersionSwitcher({ version, onShow }: { version: ShownVersion; onShow?: ((index: number) => void) | undefined }) {
  const { index, count } = version;
  const step = (to: number) => () => {
    if (onShow && to >= 0 && to < count) onShow(to);
  };
  return (
    <div className="version-switcher" role="group" aria-label="Versions">
      <button
        type="button"
        className="message-action"
        aria-label="Previous version"
        title="Previous version"
        aria-disabled={!onShow || index === 0}
        onClick={step(index - 1)}
      >
        <Icon d="M15 6l-6 6 6 6" />
      </button>
      <span className="version-count" aria-hidden="true">
        {index + 1} / {count}
      </span>
      <span className="visually-hidden">
        Version {index + 1} of {count}
      </span>
      <button
        type="button"
        className="message-action"
        aria-label="Next version"
        title="Next version"
        aria-disabled={!onShow || index === count - 1}
        onClick={step(index + 1)}
      >
        <Icon d="M9 6l6 6-6 6" />
      </button>
    </div>
  );
}
