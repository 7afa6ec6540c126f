import { expect } from 'chai';
import { validateDocument } from '../../../domain/apps/validate-document.js';
import { classifyEdit, editRisk, emitsServerCode } from '../../../domain/apps/edit-rule.js';
import { viewOfDraft } from '../../../domain/apps/app-view.js';
import { largeDocument, tinyDocument } from '../../support/apps-documents.js';

const issuesOf = (input: unknown) => {
  const checked = validateDocument(input);
  return checked.ok ? [] : checked.issues.map((i) => `${i.path}: ${i.message}`);
};

describe('validateDocument', () => {
  it('accepts a well-formed tree and fills absent optional parts', () => {
    const { data: _data, actions: _actions, server: _server, egress: _egress, ...bare } = tinyDocument();
    const checked = validateDocument({ ...bare, nodes: { root: { type: 'stack' } } });
    expect(checked.ok).to.equal(true);
    if (checked.ok) expect(checked.document).to.deep.include({ data: {}, actions: {}, server: null, egress: null });
  });

  it('names every broken rule: unknown keys, types, dangling and shared children, orphans', () => {
    const doc = tinyDocument() as any;
    doc.colour = 'red';
    doc.nodes.title.type = 'marquee';
    doc.nodes.root.children = ['title', 'items', 'ghost', 'title'];
    doc.nodes.orphan = { type: 'text' };
    const issues = issuesOf(doc);
    expect(issues).to.include('colour: is not a document field');
    expect(issues.some((i) => i.startsWith('nodes.title.type: must be one of'))).to.equal(true);
    expect(issues).to.include('nodes.root.children: names "ghost", which is not a node');
    expect(issues).to.include('nodes.root.children: names "title", which already belongs to "root"');
    expect(issues).to.include('nodes.orphan: is not reachable from the root');
  });

  it('refuses cycles, bindings and actions that do not exist, and unsafe server paths', () => {
    const doc = tinyDocument() as any;
    doc.nodes.a = { type: 'card', children: ['b'] };
    doc.nodes.b = { type: 'card', children: ['a'] };
    doc.nodes.items.bind = 'nothing';
    doc.nodes.title.action = 'nowhere';
    doc.server = { files: { '../escape.js': 'x', '/etc/passwd': 'x', 'functions/ok.js': 'ok' } };
    const issues = issuesOf(doc);
    expect(issues).to.include('nodes.a: is not reachable from the root');
    expect(issues).to.include('nodes.items.bind: must name a binding in data');
    expect(issues).to.include('nodes.title.action: must name an action in actions');
    expect(issues.filter((i) => i.includes('safe segments'))).to.have.length(2);
  });

  it('accepts a 2,000-node tree', () => {
    expect(issuesOf(largeDocument(2_000))).to.deep.equal([]);
  });

  it('holds the node, depth and egress limits', () => {
    const wide = tinyDocument() as any;
    for (let i = 0; i < 5_001; i++) wide.nodes[`n${i}`] = { type: 'text' };
    expect(issuesOf(wide)).to.deep.equal(['nodes: has 5004 nodes; at most 5000']);
    const deep = tinyDocument() as any;
    let parent = 'root';
    for (let i = 0; i < 70; i++) {
      deep.nodes[parent].children = [...(deep.nodes[parent].children ?? []), `d${i}`];
      deep.nodes[`d${i}`] = { type: 'stack' };
      parent = `d${i}`;
    }
    expect(issuesOf(deep).some((i) => i.includes('nested deeper than 64'))).to.equal(true);
    expect(issuesOf({ ...tinyDocument(), egress: { allowDomains: ['10.0.0.1'] } })[0]).to.contain('raw IPs are never allowed');
  });
});

describe('the edit rule', () => {
  it('classifies instructions that need server code', () => {
    expect(classifyEdit('make the heading blue')).to.equal('tree');
    expect(classifyEdit('add an endpoint that emails me')).to.equal('server');
    expect(classifyEdit('call fn:sync on save')).to.equal('server');
  });

  it('is read-class only for an owner-scoped tree app with a tree instruction', () => {
    expect(editRisk({ scope: 'owner', ui: 'tree' }, 'add a subtitle')).to.equal('read');
    expect(editRisk({ scope: 'shared', ui: 'tree' }, 'add a subtitle')).to.equal('write');
    expect(editRisk({ scope: 'owner', ui: 'http' }, 'add a subtitle')).to.equal('write');
    expect(editRisk({ scope: 'owner', ui: 'tree' }, 'add a server function')).to.equal('write');
    expect(editRisk(null, 'add a subtitle')).to.equal('write');
  });

  it('sees server code in changed server files and in new fn: calls', () => {
    const before = tinyDocument();
    expect(emitsServerCode(before, { ...before, title: 'Other' })).to.equal(false);
    expect(emitsServerCode(before, { ...before, server: { files: { 'server.js': 'x' } } })).to.equal(true);
    expect(emitsServerCode(before, { ...before, actions: { go: { kind: 'call', target: 'fn:go' } } })).to.equal(true);
  });
});

describe('viewOfDraft', () => {
  it('marks children that have not arrived, and the node still streaming, as pending', () => {
    const view = viewOfDraft('app_x', {
      title: 'Gro',
      root: 'root',
      nodes: { root: { type: 'stack', children: ['title', 'items'] }, title: { type: 'heading', props: { text: 'Gr' } } },
    });
    expect(view.status).to.equal('generating');
    expect(view.nodes.root!.pending).to.equal(false);
    expect(view.nodes.title!.pending).to.equal(true);
    expect(view.nodes.items).to.deep.equal({ type: null, props: {}, children: [], pending: true });
  });
});
