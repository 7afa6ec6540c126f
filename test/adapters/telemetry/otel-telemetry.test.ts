import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OtelTelemetry } from '../../../adapters/telemetry/otel-telemetry.js';
import { NoTelemetry } from '../../../adapters/telemetry/no-telemetry.js';

describe('OtelTelemetry (the Telemetry port over @opentelemetry/api)', () => {
  it('with no SDK registered: spans do not record, their attributes are never worked out, and no header is written', async () => {
    expect(trace.getTracerProvider().getTracer('x').startSpan('probe').isRecording()).to.equal(false);
    const telemetry = new OtelTelemetry({ subject: 'hash', recordContent: false });
    let worked = false;
    const answer = await telemetry.span(
      'porter.turn',
      () => {
        worked = true;
        return { 'porter.thread.id': 'thr_1' };
      },
      async (span) => {
        span.set({ 'porter.turn.finish_reason': 'stop' });
        return span.recording;
      },
    );
    expect(answer).to.equal(false);
    expect(worked).to.equal(false);
    expect(telemetry.traceparent()).to.equal(null);
    const headers = new Headers();
    telemetry.inject(headers);
    expect([...headers.keys()]).to.deep.equal([]);
  });

  it('records spans once the host registers a provider after Porter was made, and none before', async () => {
    const telemetry = new OtelTelemetry({ subject: 'hash', recordContent: false });
    const exporter = new InMemorySpanExporter();
    const before = await telemetry.span('porter.door.request', {}, async (span) => span.recording);
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      const after = await telemetry.span('porter.door.request', { 'porter.door.session': 'none' }, async (span) => span.recording);
      expect([before, after]).to.deep.equal([false, true]);
      expect(exporter.getFinishedSpans().map((span) => [span.name, span.attributes['porter.door.session']])).to.deep.equal([
        ['porter.door.request', 'none'],
      ]);
    } finally {
      trace.disable();
    }
  });

  it('rethrows what the work threw, and still ends the span', async () => {
    const telemetry = new OtelTelemetry({ subject: 'hash', recordContent: false });
    const failing = telemetry.span('porter.tick', {}, async () => {
      throw new Error('the store is down');
    });
    await failing.then(
      () => expect.fail('should have rejected'),
      (error: Error) => expect(error.message).to.equal('the store is down'),
    );
  });

  it('shows a subject hashed (keyed by the secret, the same on every instance), left out, or as is', () => {
    const keyed = new OtelTelemetry({ subject: 'hash', recordContent: false, hashKey: 'k'.repeat(32) });
    expect(keyed.subject('ada@example.com')).to.equal(
      createHmac('sha256', 'k'.repeat(32)).update('ada@example.com').digest('hex').slice(0, 32),
    );
    expect(keyed.subject('ada@example.com')).to.equal(
      new OtelTelemetry({ subject: 'hash', recordContent: false, hashKey: 'k'.repeat(32) }).subject('ada@example.com'),
    );
    expect(keyed.subject('ada@example.com')).not.to.equal(
      new OtelTelemetry({ subject: 'hash', recordContent: false }).subject('ada@example.com'),
    );
    expect(new OtelTelemetry({ subject: 'omit', recordContent: false }).subject('ada')).to.equal(undefined);
    expect(new OtelTelemetry({ subject: 'plain', recordContent: false }).subject('ada')).to.equal('ada');
    expect(new NoTelemetry().subject()).to.equal(undefined);
  });
});
