import { z } from 'zod';
import { BLOB_CONTENT_TYPE } from '../../../domain/apps/app-document.js';
import type { AppsUseCases } from '../../../ports/use-cases/apps.js';
import { AppRecord, AppRecordList, appParams, Deleted, StoredBlob } from '../shapes/app-shapes.js';
import { JsonValue } from '../shapes/common-shapes.js';
import { blobKeyParam, collectionParam, recordIdParam } from '../shapes/path-params.js';
import { bytes, json, jsonBody, route, type WireRoute } from '../wire-route.js';
import { principalOf } from '../wire-state.js';
import { callerRoutes } from './caller-routes.js';

const recordBody = z.strictObject({ data: JsonValue });
/** The CSRF floor keeps cookie-authenticated writes JSON, so blob bytes travel as base64. */
const blobBody = z.strictObject({
  contentType: z
    .string()
    .regex(BLOB_CONTENT_TYPE, 'must be a media type such as image/png')
    .describe('`type/subtype`, e.g. `image/png` (stored in lower case).'),
  data: z.base64({ message: 'must be base64' }).max(3 * 1024 * 1024),
});

const inCollection = { ...appParams, collection: collectionParam };
const oneRecord = { ...inCollection, recordId: recordIdParam };
const oneBlob = { ...appParams, key: blobKeyParam };

/** An app's records and blobs (owned by the app; they move and go with it). */
export function appDataRoutes(apps: AppsUseCases): WireRoute[] {
  const data = callerRoutes(apps, {
    param: appParams.id,
    key: 'appId',
    within: { collection: collectionParam, recordId: recordIdParam, key: blobKeyParam },
  });
  return [
    data.list('/apps/:id/records/:collection', 'listRecords', {
      summary: "List a collection's records",
      responses: { 200: json('Records.', AppRecordList) },
    }),
    data.get('/apps/:id/records/:collection/:recordId', 'getRecord', {
      summary: 'Read a record',
      responses: { 200: json('The record.', AppRecord) },
    }),
    route({
      id: 'addRecord',
      method: 'put',
      path: '/apps/:id/records/:collection',
      summary: 'Add a record (the server mints its id)',
      params: inCollection,
      body: jsonBody(recordBody),
      responses: { 201: json('The new record.', AppRecord) },
      errors: ['payload-too-large', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        const { record } = await apps.putRecord.execute({
          principal: principalOf(ctx),
          appId: params.id,
          collection: params.collection,
          data: body.data,
        });
        ctx.status = 201;
        ctx.body = record;
      },
    }),
    route({
      id: 'putRecord',
      method: 'put',
      path: '/apps/:id/records/:collection/:recordId',
      summary: 'Write a record',
      params: oneRecord,
      body: jsonBody(recordBody),
      responses: { 200: json('The record, replaced.', AppRecord), 201: json('The record, created.', AppRecord) },
      errors: ['payload-too-large', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        const { record, created } = await apps.putRecord.execute({
          principal: principalOf(ctx),
          appId: params.id,
          collection: params.collection,
          recordId: params.recordId,
          data: body.data,
        });
        ctx.status = created ? 201 : 200;
        ctx.body = record;
      },
    }),
    data.delete('/apps/:id/records/:collection', 'deleteRecords', {
      summary: 'Delete a whole collection',
      responses: { 200: json('How many records went.', Deleted) },
      errors: ['unavailable'],
    }),
    data.delete('/apps/:id/records/:collection/:recordId', 'deleteRecords', {
      id: 'deleteRecord',
      summary: 'Delete a record',
      errors: ['unavailable'],
    }),
    route({
      id: 'getBlob',
      method: 'get',
      path: '/apps/:id/blobs/:key',
      summary: 'Read a blob',
      params: oneBlob,
      responses: { 200: bytes('The bytes, in their stored content type (never run as a page here).', '*/*') },
      handle: async (ctx, { params }) => {
        const blob = await apps.getBlob.execute({ principal: principalOf(ctx), appId: params.id, key: params.key });
        ctx.type = blob.contentType;
        // Stored bytes never run as a page of the host's origin.
        ctx.set({ 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" });
        ctx.body = Buffer.from(blob.bytes);
      },
    }),
    route({
      id: 'putBlob',
      method: 'put',
      path: '/apps/:id/blobs/:key',
      summary: 'Write a blob',
      description: 'JSON with base64 data: the CSRF floor keeps cookie-authenticated writes JSON. At most 2 MiB once decoded.',
      params: oneBlob,
      body: jsonBody(blobBody),
      responses: { 200: json('What was stored.', StoredBlob) },
      errors: ['payload-too-large', 'unavailable'],
      handle: async (ctx, { params, body }) => {
        ctx.body = await apps.putBlob.execute({
          principal: principalOf(ctx),
          appId: params.id,
          key: params.key,
          contentType: body.contentType,
          bytes: new Uint8Array(Buffer.from(body.data, 'base64')),
        });
      },
    }),
    data.delete('/apps/:id/blobs/:key', 'deleteBlob', {
      summary: 'Delete a blob',
      errors: ['unavailable'],
    }),
  ];
}
