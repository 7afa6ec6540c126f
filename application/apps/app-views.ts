import type { App } from '../../domain/apps/app.js';
import type { AppDetail, AppSummary } from '../../ports/use-cases/apps.js';

export function summaryOf(app: App): AppSummary {
  const pin = app.pin;
  return {
    id: app.id,
    title: app.document.title,
    ui: app.document.ui,
    scope: app.document.scope,
    version: app.version,
    versionNumber: app.versionNumber,
    nodes: app.nodeCount(),
    slot: pin?.slot ?? null,
    drifted: pin?.drifted ?? false,
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  };
}

export function detailOf(app: App): AppDetail {
  return { ...summaryOf(app), document: app.document, contentHash: app.contentHash, fnRefs: app.fnRefs() };
}

/** What a person should know about the app as it stands. */
export function noticesOf(app: App): string[] {
  const notices: string[] = [];
  if (app.document.ui === 'tree') {
    for (const name of app.fnRefs()) notices.push(`fn:${name} runs only once the app is served (graduate it)`);
  }
  return notices;
}
