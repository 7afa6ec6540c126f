/** A line icon on the chrome's 24×24 grid, hidden from assistive technology: its button carries the name. */
export function Icon({ d, className }: { d: string; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

/** A button that is only an icon: its name is said to assistive technology and shown on hover. */
export function IconButton({ label, d, onClick }: { label: string; d: string; onClick(): void }) {
  return (
    <button type="button" className="icon-button" aria-label={label} title={label} onClick={onClick}>
      <Icon d={d} />
    </button>
  );
}
