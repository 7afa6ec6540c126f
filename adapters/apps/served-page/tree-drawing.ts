import { safeUrl } from '../../../domain/apps/safe-url.js';
import type { DrawContext } from './draw-context.js';
import { fieldDrawing } from './field-drawing.js';
import { el } from './page-elements.js';
import { boundList, recordChart, recordTable } from './record-views.js';
import { gridColumns, headingTag, str } from './tree-values.js';

/**
 * The app's tree as the page's elements, from its root (64 levels at most), exactly as the
 * chrome's renderer draws a tree app: layout, text, fields, buttons and forms that run the app's
 * actions, and views of its records that redraw as they change. A node of an unknown type is a stack.
 */
export function drawTree(ctx: DrawContext): Node | null {
  const { app, main, kit } = ctx;
  const field = fieldDrawing();

  const draw = (id: string, depth: number): Node | null => {
    const node = app.nodes[id];
    if (!node || depth > 64) return null;
    const p = node.props ?? {};
    const kids = () => (node.children ?? []).map((child) => draw(child, depth + 1)).filter((n): n is Node => n !== null);
    const text = str(p.text) ?? str(p.label) ?? str(p.title) ?? str(p.content) ?? str(p.value) ?? '';
    const name = str(p.name) ?? id;
    const withKids = (container: HTMLElement) => {
      container.append(...kids());
      return container;
    };
    switch (node.type) {
      case 'stack':
        return withKids(el('div', 'stack'));
      case 'row':
        return withKids(el('div', 'row'));
      case 'grid': {
        const grid = withKids(el('div', 'grid'));
        grid.style.gridTemplateColumns = `repeat(${gridColumns(p.columns)}, minmax(0, 1fr))`;
        return grid;
      }
      case 'card': {
        const card = el('section', 'card');
        if (str(p.title)) card.append(el('h3', undefined, str(p.title)));
        return withKids(card);
      }
      case 'heading':
        // The page's own title is its h1 (drawn above); the app's first heading level is h2 under it.
        return el(headingTag(p.level), undefined, text);
      case 'text':
        return el('p', undefined, text);
      case 'button': {
        const button = el('button', 'button', text || 'Button');
        button.type = node.action ? 'button' : 'submit';
        if (node.action)
          button.addEventListener('click', () => {
            const scope = button.closest('form, .card, .row, .stack, main') ?? main;
            const record = kit.gatherFields(scope);
            button.disabled = true;
            void ctx.act(node.action, Object.keys(record).length > 0 ? { record } : {}, button).then((done) => {
              button.disabled = false;
              if (done) kit.clearFields(scope);
            });
          });
        return button;
      }
      case 'input':
      case 'textarea':
      case 'checkbox':
      case 'select':
        return field(node, name, text);
      case 'list': {
        if (node.bind) return boundList(ctx, { ...node, bind: node.bind });
        const ul = el('ul', 'list');
        for (const child of kids()) {
          const li = el('li');
          li.append(child);
          ul.append(li);
        }
        return ul;
      }
      case 'table':
        return recordTable(ctx, node);
      case 'chart':
        return recordChart(ctx, node);
      case 'image': {
        const src = safeUrl(str(p.src), true, location.href);
        if (!src) return el('div', 'image-placeholder', str(p.alt) ?? 'Image');
        const image = el('img');
        image.src = src;
        image.alt = str(p.alt) ?? '';
        image.loading = 'lazy';
        return image;
      }
      case 'link': {
        const href = safeUrl(str(p.href) ?? str(p.url), false, location.href);
        if (!href) return el('span', undefined, text);
        const link = el('a', undefined, text || href);
        link.href = href;
        link.target = '_blank';
        link.rel = 'noopener noreferrer';
        return link;
      }
      case 'divider':
        return el('hr');
      case 'form': {
        const form = el('form', 'form');
        if (str(p.title)) form.append(el('h3', undefined, str(p.title)));
        withKids(form);
        form.addEventListener('submit', (event) => {
          event.preventDefault();
          void ctx.act(node.action, { record: kit.gatherFields(form) }, form).then((done) => done && kit.clearFields(form));
        });
        return form;
      }
      default:
        return withKids(el('div', 'stack'));
    }
  };

  return draw(app.root, 0);
}
