import type { DrawContext, TreeNode } from './draw-context.js';
import { el } from './page-elements.js';
import { chartPoints, isObject, str, tableColumns } from './tree-values.js';

/**
 * A list bound to a collection: busy until its records are read, then each record on a line (with
 * the node's action, Remove by default, beside it), or the app's words for an empty list.
 */
export function boundList(ctx: DrawContext, node: TreeNode & { bind: string }): HTMLElement {
  const p = node.props ?? {};
  const holder = el('div', 'bound');
  const collection = ctx.app.data[node.bind]?.collection;
  return ctx.live(holder, () => {
    const shown = collection ? ctx.records[collection] : [];
    holder.replaceChildren();
    if (shown === undefined) {
      holder.setAttribute('aria-busy', 'true');
      return;
    }
    holder.removeAttribute('aria-busy');
    if (shown.length === 0) return void holder.append(el('p', 'empty', str(p.empty) ?? 'Nothing here yet.'));
    const ul = el('ul', 'list');
    for (const record of shown) {
      const li = el('li', 'item');
      li.append(el('span', undefined, ctx.kit.summary(record.data)));
      if (node.action) {
        const remove = el('button', 'link', str(p.actionLabel) ?? 'Remove');
        remove.type = 'button';
        remove.addEventListener('click', () => void ctx.act(node.action, { recordId: record.id }, holder));
        li.append(remove);
      }
      ul.append(li);
    }
    holder.append(ul);
  });
}

/** A table of a collection's records: the columns it names, else the first record's fields. */
export function recordTable(ctx: DrawContext, node: TreeNode): HTMLElement {
  const p = node.props ?? {};
  const wrap = el('div', 'table-wrap');
  const collection = node.bind ? ctx.app.data[node.bind]?.collection : undefined;
  return ctx.live(wrap, () => {
    const shown = collection ? (ctx.records[collection] ?? []) : [];
    const keys = tableColumns(p.columns, shown);
    const table = el('table');
    if (str(p.caption)) table.append(el('caption', undefined, str(p.caption)));
    const head = el('tr');
    for (const key of keys) {
      const th = el('th', undefined, key);
      th.scope = 'col';
      head.append(th);
    }
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    for (const record of shown) {
      const row = el('tr');
      for (const key of keys) row.append(el('td', undefined, isObject(record.data) ? ctx.kit.cell(record.data[key]) : ''));
      tbody.append(row);
    }
    table.append(thead, tbody);
    wrap.replaceChildren(table);
  });
}

/** A bar chart of a collection's records: one bar per record with a number, scaled to the largest. */
export function recordChart(ctx: DrawContext, node: TreeNode): HTMLElement {
  const p = node.props ?? {};
  const figure = el('figure', 'chart');
  const collection = node.bind ? ctx.app.data[node.bind]?.collection : undefined;
  const valueKey = str(p.valueKey) ?? 'value';
  const labelKey = str(p.labelKey) ?? 'label';
  return ctx.live(figure, () => {
    figure.replaceChildren();
    if (str(p.title)) figure.append(el('figcaption', undefined, str(p.title)));
    const points = chartPoints(collection ? (ctx.records[collection] ?? []) : [], valueKey, labelKey);
    if (points.length === 0) return void figure.append(el('p', 'empty', 'No data to chart yet.'));
    const max = Math.max(1, ...points.map((point) => point.value));
    const bars = el('div', 'bars');
    for (const point of points) {
      const bar = el('div', 'bar');
      bar.title = `${point.label}: ${point.value}`;
      const fill = el('span', 'fill');
      fill.style.height = `${(point.value / max) * 100}%`;
      bar.append(fill, el('span', 'bar-label', point.label));
      bars.append(bar);
    }
    figure.append(bars);
  });
}
