import { expect } from 'chai';
import { validateDocument } from '../../../domain/apps/validate-document.js';
import { toolRefs } from '../../../domain/apps/app-document.js';
import { emitsServerCode, editRisk } from '../../../domain/apps/edit-rule.js';
import { scaffold } from '../../../adapters/apps/node-app-scaffold.js';
import { tinyDocument, toolDocument } from '../../support/apps-documents.js';

const issuesOf = (input: unknown) => {
  const checked = validateDocument(input);
  return checked.ok ? [] : checked.issues.map((i) => `${i.path}: ${i.message}`);
};

describe('tool actions in an AppDocument', () => {
  it('accepts actions that run host tools, with fixed scalar inputs, and lists the tools used', () => {
    const checked = validateDocument(toolDocument());
    expect(checked.ok).to.equal(true);
    if (!checked.ok) return;
    expect(checked.document.actions['clear-notes']).to.deep.equal({ kind: 'tool', tool: 'notes_clear', input: { confirm: true } });
    expect(checked.document.actions['add-note']).to.deep.equal({ kind: 'tool', tool: 'notes_add' });
    expect(toolRefs(checked.document)).to.deep.equal(['notes_add', 'notes_clear', 'notes_list']);
    expect(toolRefs(tinyDocument())).to.deep.equal([]);
  });

  it("refuses a malformed tool name, one of Porter's own tools, extra fields and non-scalar inputs", () => {
    const doc = toolDocument() as any;
    doc.actions['add-note'] = { kind: 'tool', tool: '../notes' };
    doc.actions['list-notes'] = { kind: 'tool', tool: 'porter_apps_edit' };
    doc.actions['clear-notes'] = { kind: 'tool', tool: 'notes_clear', input: { nested: { deep: 1 } } };
    doc.actions.extra = { kind: 'tool', tool: 'notes_add', target: 'fn:x' };
    doc.actions.many = { kind: 'tool', tool: 'notes_add', input: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])) };
    const issues = issuesOf(doc);
    expect(issues).to.include('actions.add-note.tool: must be a tool name: a letter, then up to 63 letters, digits, _ or -');
    expect(issues).to.include("actions.list-notes.tool: names one of Porter's own tools; an app may run only the host's tools");
    expect(issues).to.include('actions.clear-notes.input.nested: must be a string, a finite number, a boolean or null');
    expect(issues.some((i) => i.startsWith('actions.extra: must be'))).to.equal(true);
    expect(issues).to.include('actions.many.input: has more than 32 props');
  });

  it('is not server code: a tree edit may add one, and the edit stays read-class', () => {
    const before = tinyDocument();
    const after = { ...before, actions: { run: { kind: 'tool' as const, tool: 'notes_list' } } };
    expect(emitsServerCode(before, after)).to.equal(false);
    expect(editRisk(before, 'add a button that shows my notes')).to.equal('read');
  });
});

describe('scaffold', () => {
  it('marks the served app CommonJS unless it brings its own package.json', () => {
    const files = scaffold(tinyDocument());
    const pkg = files.find((f) => f.path === '/app/package.json');
    expect(JSON.parse(pkg!.content)).to.deep.equal({ private: true, type: 'commonjs' });
    const own = scaffold({ ...tinyDocument(), server: { files: { 'package.json': '{"type":"module"}', 'server.js': 'x' } } });
    expect(own.filter((f) => f.path === '/app/package.json').map((f) => f.content)).to.deep.equal(['{"type":"module"}']);
  });
});
