import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  /** The raw body, as it was signed. */
  readonly body: string;
  readonly at: number;
  /** The status this receiver answered with. */
  readonly answered: number;
}

export interface WebhookReceiver {
  /** The URL to POST to (on 127.0.0.1). */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A local receiver of outbound webhooks: it keeps every request (headers and raw body) and answers
 * the n-th one with `statuses[n]` (the last status for every later one).
 */
export async function webhookReceiver(statuses: ReadonlyArray<number> = [200]): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answered = statuses[Math.min(received.length, statuses.length - 1)] ?? 200;
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), answered });
    res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'not now');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks/porter`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
