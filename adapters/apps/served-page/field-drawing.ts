import { el } from './page-elements.js';
import type { TreeNode } from './draw-context.js';
import { inputType, list, str } from './tree-values.js';

/** Draws the app's fields, each with its label (unseen when the app gives none), ids unique on the page. */
export function fieldDrawing() {
  let fieldCount = 0;
  const label = (field: HTMLElement, text: string | undefined, fallback: string): HTMLLabelElement => {
    field.id = `field-${++fieldCount}`;
    const tag = el('label', text ? undefined : 'visually-hidden', text ?? fallback);
    tag.htmlFor = field.id;
    return tag;
  };

  /** An input, a textarea, a checkbox or a select, named for the record it fills in; null for another node. */
  return (node: TreeNode, name: string, text: string): HTMLElement | null => {
    const p = node.props ?? {};
    switch (node.type) {
      case 'input':
      case 'textarea': {
        const field = node.type === 'input' ? el('input') : el('textarea');
        field.name = name;
        field.placeholder = str(p.placeholder) ?? '';
        if (field instanceof HTMLInputElement) {
          field.type = inputType(p.inputType ?? p.kind);
          field.required = p.required === true;
        } else field.rows = 3;
        const wrap = el('div', 'field');
        wrap.append(label(field, str(p.label), str(p.placeholder) ?? name), field);
        return wrap;
      }
      case 'checkbox': {
        const wrap = el('label', 'check');
        const box = el('input');
        box.type = 'checkbox';
        box.name = name;
        box.defaultChecked = p.checked === true;
        wrap.append(box, el('span', undefined, str(p.label) ?? text));
        return wrap;
      }
      case 'select': {
        const select = el('select');
        select.name = name;
        for (const option of list(p.options)) select.append(el('option', undefined, option));
        const wrap = el('div', 'field');
        wrap.append(label(select, str(p.label), name), select);
        return wrap;
      }
      default:
        return null;
    }
  };
}
