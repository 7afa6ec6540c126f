import { expect } from 'chai';
import { z } from 'zod';
import type { Principal } from '../../../domain/principal.js';
import type { UseCase } from '../../../ports/use-case.js';
import { callerRoutes, pageQuery } from '../../../adapters/http/routes/caller-routes.js';
import { bare, json, jsonBody, type WireRoute } from '../../../adapters/http/wire-route.js';
import type { WireRouteContext } from '../../../adapters/http/wire-state.js';

const principal = { subject: 'ada' } as unknown as Principal;

/** A use case that records what it was handed and answers `answer`. */
function recording<I>(answer: unknown): UseCase<I, unknown> & { inputs: I[] } {
  const inputs: I[] = [];
  return {
    inputs,
    execute: async (input) => {
      inputs.push(input);
      return answer;
    },
  };
}

/** Runs a declared route's handler as the router would, with its input already parsed. */
async function call(declared: WireRoute, input: { params?: object; query?: object; body?: object }) {
  const ctx = { state: { principal }, status: 404, body: undefined as unknown };
  await declared.handle(ctx as unknown as WireRouteContext, { params: {}, ...input } as never, async () => {});
  return ctx;
}

describe('callerRoutes', () => {
  const notes = {
    listNotes: recording<{ principal: Principal; limit?: number }>({ notes: [] }),
    getNote: recording<{ principal: Principal; noteId: string }>({ id: 'n1' }),
    createNote: recording<{ principal: Principal; text: string }>({ id: 'n2' }),
    deleteNote: recording<{ principal: Principal; noteId: string; line?: string }>(undefined),
  };
  const note = callerRoutes(notes, { param: z.string(), key: 'noteId', within: { line: z.string() } });

  it("names the operation after its use case, pages lists with pageQuery and declares the path's parameters", () => {
    const list = note.list('/notes', 'listNotes', { summary: 'List', responses: { 200: json('Notes.', z.object({})) } });
    const read = note.get('/notes/:id', 'getNote', { id: 'readNote', summary: 'Read', responses: { 200: json('A note.', z.object({})) } });
    expect(list).to.include({ id: 'listNotes', method: 'get', path: '/notes', query: pageQuery });
    expect(list).to.not.have.property('params');
    expect(read).to.include({ id: 'readNote', method: 'get' });
    expect(read.params).to.have.keys(['id']);
  });

  it('hands the use case the caller, the named things under their keys, the query and the body', async () => {
    const list = note.list('/notes', 'listNotes', { summary: 'List', responses: { 200: json('Notes.', z.object({})) } });
    const remove = note.delete('/notes/:id/lines/:line', 'deleteNote', { summary: 'Delete', responses: { 204: bare('Deleted.') } });
    expect((await call(list, { query: { limit: 2 } })).body).to.deep.equal({ notes: [] });
    expect(await call(remove, { params: { id: 'n1', line: '3' } })).to.deep.include({ status: 204, body: undefined });
    expect(notes.listNotes.inputs).to.deep.equal([{ principal, limit: 2 }]);
    expect(notes.deleteNote.inputs).to.deep.equal([{ principal, noteId: 'n1', line: '3' }]);
  });

  it('answers 201 with what a create returns', async () => {
    const create = note.post('/notes', 'createNote', {
      summary: 'Create',
      body: jsonBody(z.strictObject({ text: z.string() })),
      responses: { 201: json('The note.', z.object({})) },
    });
    expect(await call(create, { body: { text: 'hi' } })).to.deep.include({ status: 201, body: { id: 'n2' } });
    expect(notes.createNote.inputs).to.deep.equal([{ principal, text: 'hi' }]);
  });

  it('never lets a body or query stand in for the caller or what the path names', async () => {
    const edits = { editNote: recording<{ principal: Principal; noteId: string }>({ id: 'n1' }) };
    const edit = callerRoutes(edits, { param: z.string(), key: 'noteId' }).patch('/notes/:id', 'editNote', {
      summary: 'Edit',
      body: jsonBody(z.strictObject({ noteId: z.string(), principal: z.unknown() })),
      responses: { 200: json('The note.', z.object({})) },
    });
    await call(edit, { params: { id: 'n1' }, query: { noteId: 'n9' }, body: { noteId: 'n9', principal: { subject: 'mallory' } } });
    expect(edits.editNote.inputs).to.deep.equal([{ principal, noteId: 'n1' }]);
  });

  it('refuses a path parameter the family does not declare', () => {
    expect(() => callerRoutes(notes).get('/notes/:id', 'getNote' as never, { summary: 'Read', responses: { 204: bare('') } })).to.throw(
      /declares no :id/,
    );
  });
});
