import type { OpenSpan, Telemetry } from '../../ports/telemetry.js';

const CLOSED: OpenSpan = { recording: false, set: () => undefined };

/** Telemetry off (`telemetry: false`): no span is opened, no header read or written. */
export class NoTelemetry implements Telemetry {
  readonly recordsContent = false;

  span<T>(_name: string, _attributes: unknown, work: (span: OpenSpan) => Promise<T>): Promise<T> {
    return work(CLOSED);
  }

  traceparent(): string | null {
    return null;
  }

  continueFrom<T>(_headers: unknown, work: () => T): T {
    return work();
  }

  inject(): void {}

  subject(): string | undefined {
    return undefined;
  }
}
