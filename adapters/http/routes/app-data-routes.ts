import type { Router } from '@koa/router';
import { z } from 'zod';
import type { AppsUseCases } from '../../../ports/use-cases/apps.js';
import { parse } from '../validation.js';
import { bodyOf, principalOf, type WireState } from '../wire-state.js';
import { pageQuery } from './system-routes.js';

const COLLECTION = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a collection name (letters, digits, _ or -)');
const RECORD_ID = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be a record id (letters, digits, _ or -)');
const recordBody = z.strictObject({ data: z.json() });
/** The CSRF floor keeps cookie-authenticated writes JSON, so blob bytes travel as base64. */
const blobBody = z.strictObject({
  contentType: z.string().min(3).max(200),
  data: z.base64({ message: 'must be base64' }).max(3 * 1024 * 1024),
});

/** An app's records and blobs (owned by the app; they move and go with it). */
export function registerAppDataRoutes(router: Router<WireState>, apps: AppsUseCases): void {
  router.get('/apps/:id/records/:collection', async (ctx) => {
    const collection = parse(COLLECTION, ctx.params.collection, 'collection');
    ctx.body = await apps.listRecords.execute({ principal: principalOf(ctx), appId: ctx.params.id!, collection, ...parse(pageQuery, ctx.query, 'query') });
  });
  router.get('/apps/:id/records/:collection/:recordId', async (ctx) => {
    const collection = parse(COLLECTION, ctx.params.collection, 'collection');
    const recordId = parse(RECORD_ID, ctx.params.recordId, 'record id');
    ctx.body = await apps.getRecord.execute({ principal: principalOf(ctx), appId: ctx.params.id!, collection, recordId });
  });
  router.put('/apps/:id/records/:collection', async (ctx) => {
    const collection = parse(COLLECTION, ctx.params.collection, 'collection');
    const { data } = parse(recordBody, bodyOf(ctx), 'body');
    const { record } = await apps.putRecord.execute({ principal: principalOf(ctx), appId: ctx.params.id!, collection, data });
    ctx.status = 201;
    ctx.body = record;
  });
  router.put('/apps/:id/records/:collection/:recordId', async (ctx) => {
    const collection = parse(COLLECTION, ctx.params.collection, 'collection');
    const recordId = parse(RECORD_ID, ctx.params.recordId, 'record id');
    const { data } = parse(recordBody, bodyOf(ctx), 'body');
    const { record, created } = await apps.putRecord.execute({ principal: principalOf(ctx), appId: ctx.params.id!, collection, recordId, data });
    ctx.status = created ? 201 : 200;
    ctx.body = record;
  });
  router.delete('/apps/:id/records/:collection', async (ctx) => {
    const collection = parse(COLLECTION, ctx.params.collection, 'collection');
    ctx.body = await apps.deleteRecords.execute({ principal: principalOf(ctx), appId: ctx.params.id!, collection });
  });
  router.delete('/apps/:id/records/:collection/:recordId', async (ctx) => {
    const collection = parse(COLLECTION, ctx.params.collection, 'collection');
    const recordId = parse(RECORD_ID, ctx.params.recordId, 'record id');
    await apps.deleteRecords.execute({ principal: principalOf(ctx), appId: ctx.params.id!, collection, recordId });
    ctx.status = 204;
  });

  router.get('/apps/:id/blobs/:key', async (ctx) => {
    const blob = await apps.getBlob.execute({ principal: principalOf(ctx), appId: ctx.params.id!, key: ctx.params.key! });
    ctx.type = blob.contentType;
    // Stored bytes never run as a page of the host's origin.
    ctx.set({ 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" });
    ctx.body = Buffer.from(blob.bytes);
  });
  router.put('/apps/:id/blobs/:key', async (ctx) => {
    const body = parse(blobBody, bodyOf(ctx), 'body');
    ctx.body = await apps.putBlob.execute({ principal: principalOf(ctx), appId: ctx.params.id!, key: ctx.params.key!, contentType: body.contentType, bytes: new Uint8Array(Buffer.from(body.data, 'base64')) });
  });
  router.delete('/apps/:id/blobs/:key', async (ctx) => {
    await apps.deleteBlob.execute({ principal: principalOf(ctx), appId: ctx.params.id!, key: ctx.params.key! });
    ctx.status = 204;
  });
}
