import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { WebHandler } from '../shared/web-handler.js';
import { nodeOrigin, serveWeb } from './web-glue.js';

/** A Node handler in the Connect style: it answers the request, or calls `next()` to pass it on. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * One Node listener of `handlers` in order, each passing on what it does not answer; what none
 * answers goes to `last`. A host of Porter's own (the development host, `porter serve`) is this,
 * not a web framework's application.
 */
export function inOrder(handlers: ReadonlyArray<NodeHandler>, last: RequestListener): RequestListener {
  return (req, res) => {
    const at = (index: number): void => {
      const handler = handlers[index];
      if (!handler) return void last(req, res);
      handler(req, res, () => at(index + 1));
    };
    at(0);
  };
}

/**
 * A framework-free handler as a Node handler for the requests `takes` says are its own (the
 * others pass on). Its origin is read from the socket and `Host`, as Koa reads it without a
 * trusted proxy. A handler that fails answers 500, as Koa's application does, and `onError` hears why.
 */
export function nodeWebHandler(
  handler: WebHandler,
  takes: (method: string, path: string) => boolean,
  onError: (error: NodeJS.ErrnoException) => void,
): NodeHandler {
  return (req, res, next) => {
    if (!takes(req.method ?? 'GET', pathOf(req))) return next();
    serveWeb(handler, req, res, nodeOrigin(req, false)).catch((error: NodeJS.ErrnoException) => {
      onError(error);
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal Server Error');
    });
  };
}

/** What no handler answered: 404, as a Koa application says it. */
export const notFound: RequestListener = (_, res) => {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '9' }).end('Not Found');
};

function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
