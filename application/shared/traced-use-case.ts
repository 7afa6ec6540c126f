import type { SpanAttributes, SpanOptions, Telemetry } from '../../ports/telemetry.js';
import type { UseCase } from '../../ports/use-case.js';

/** What a traced use case's span is called and what it says about the input and the answer. */
export interface UseCaseSpan<I, O> {
  readonly name: string;
  readonly kind?: SpanOptions['kind'];
  /** Ids and names from the input (never a secret or content). */
  readonly before?: (input: I) => SpanAttributes;
  /** What the answer tells (counts, decisions). */
  readonly after?: (output: O) => SpanAttributes;
  /** What a refusal tells (a delivery that failed verification). */
  readonly failed?: (error: unknown) => SpanAttributes;
}

/** A use case inside a span: a decorator the composition wraps around it, so the use case itself stays unaware. */
export class TracedUseCase<I, O> implements UseCase<I, O> {
  constructor(
    private readonly inner: UseCase<I, O>,
    private readonly telemetry: Telemetry,
    private readonly spec: UseCaseSpan<I, O>,
  ) {}

  execute(input: I): Promise<O> {
    const { before, after, failed } = this.spec;
    return this.telemetry.span(
      this.spec.name,
      () => before?.(input) ?? {},
      async (span) => {
        try {
          const output = await this.inner.execute(input);
          if (after && span.recording) span.set(after(output));
          return output;
        } catch (error) {
          if (failed && span.recording) span.set(failed(error));
          throw error;
        }
      },
      this.spec.kind ? { kind: this.spec.kind } : {},
    );
  }
}
