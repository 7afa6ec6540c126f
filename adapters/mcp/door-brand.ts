/** How the host dresses the door's pages (consent, /connect, notices). */
export interface DoorBrand {
  /** The product name people know, e.g. "Acme Notes". */
  readonly name: string;
  /** An https (or same-origin) image shown at the top. */
  readonly logoUrl?: string;
  /** A CSS colour for buttons and accents, e.g. `#4f46e5`. */
  readonly accentColor?: string;
}
