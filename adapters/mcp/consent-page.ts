import type { ConsentView } from '../../ports/use-cases/door.js';
import { brandedPage, escapeHtml } from './door-page.js';
import type { DoorBrand } from './door-brand.js';

/**
 * What a host's own consent page is given. Whatever it renders must post back to `action`
 * (`application/x-www-form-urlencoded`) the fields `handle` (as given) and `decision`
 * (`allow` or `deny`).
 */
export interface ConsentPageModel extends ConsentView {
  readonly action: string;
  readonly brand: DoorBrand;
}

export type ConsentPageRenderer = (model: ConsentPageModel) => string;

const RISK_LABEL = {
  read: 'reads',
  write: 'changes things · asks you first',
  destructive: 'deletes · asks you first',
} as const;

/** Porter's consent page, in the host's brand. */
export const defaultConsentPage: ConsentPageRenderer = (model) => {
  const who = model.person.name ? `${model.person.name} (${model.person.subject})` : model.person.subject;
  const tools = model.tools
    .map((tool) => {
      const badges = [
        `<span class="badge">${RISK_LABEL[tool.risk]}</span>`,
        ...(tool.egress ? ['<span class="badge">reaches the internet · asks you first</span>'] : []),
      ].join('');
      return `<li><code>${escapeHtml(tool.name)}</code>${badges}<br><span class="muted">${escapeHtml(tool.description)}</span></li>`;
    })
    .join('');
  const clientLink = model.client.clientUri ? ` (<span class="muted">${escapeHtml(model.client.clientUri)}</span>)` : '';
  // A client known by its metadata document chose its own name; its document's host is what was checked.
  const documentHost = model.client.documentHost
    ? `\n<p class="muted">Its name is what its own document on <strong>${escapeHtml(model.client.documentHost)}</strong> says.</p>`
    : '';
  return brandedPage(
    model.brand,
    `Connect ${model.client.name}`,
    `<h1>Connect ${escapeHtml(model.client.name)} to ${escapeHtml(model.brand.name)}?</h1>
<p>Signed in as <strong>${escapeHtml(who)}</strong>.</p>
<p><strong>${escapeHtml(model.client.name)}</strong>${clientLink} will be able to use these tools as you:</p>${documentHost}
<ul class="tools">${tools || '<li class="muted">No tools are registered yet.</li>'}</ul>
<p class="muted">Reads run right away. Anything that changes, deletes or reaches outside waits for your approval in ${escapeHtml(model.brand.name)}.</p>
<form method="post" action="${escapeHtml(model.action)}">
<input type="hidden" name="handle" value="${escapeHtml(model.handle)}">
<div class="actions"><button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>
<p class="muted">After you answer you will be sent to <code>${escapeHtml(model.client.redirectOrigin)}</code>.</p>`,
  );
};
