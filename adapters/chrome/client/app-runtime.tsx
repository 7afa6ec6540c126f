import { useCallback, useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import type { AppDocument } from '../../../domain/apps/app-document.js';
import { useToolActions } from './app-actions.js';
import type { AppRecord, AppRuntime } from './app-renderer.js';
import { wire } from './wire.js';

const recordList = z.object({
  records: z.array(z.object({ id: z.string(), data: z.unknown() })),
  nextCursor: z.string().nullable().optional(),
});

/** Records of every bound collection, and the document's actions, over the app's routes. */
export function useAppRuntime(appId: string, document: AppDocument | undefined): AppRuntime | undefined {
  const [records, setRecords] = useState<Record<string, AppRecord[]>>({});
  const tools = useToolActions(appId);
  const base = `/apps/${encodeURIComponent(appId)}`;
  const collections = useMemo(() => [...new Set(Object.values(document?.data ?? {}).map((b) => b.collection))], [document]);

  const refresh = useCallback(
    async (collection: string) => {
      const page = await wire('GET', `${base}/records/${encodeURIComponent(collection)}`, { schema: recordList });
      setRecords((current) => ({ ...current, [collection]: page.records }));
    },
    [base],
  );

  useEffect(() => {
    for (const collection of collections) void refresh(collection).catch(() => setRecords((current) => ({ ...current, [collection]: [] })));
  }, [collections, refresh]);

  return useMemo<AppRuntime | undefined>(() => {
    if (!document) return undefined;
    return {
      records: (bind) => {
        const binding = document.data[bind];
        return binding ? records[binding.collection] : [];
      },
      outcome: tools.outcome,
      act: async (name, input, from) => {
        const action = document.actions[name];
        if (!action) return;
        if (action.kind === 'put-record') {
          // Nothing typed: nothing to keep (an "Add" pressed on an empty field).
          if (!input.recordId && Object.keys(input.record ?? {}).length === 0) return;
          await wire(
            'PUT',
            `${base}/records/${encodeURIComponent(action.collection)}${input.recordId ? `/${encodeURIComponent(input.recordId)}` : ''}`,
            { body: { data: input.record ?? {} } },
          );
          await refresh(action.collection);
        } else if (action.kind === 'delete-record') {
          if (!input.recordId) return;
          await wire('DELETE', `${base}/records/${encodeURIComponent(action.collection)}/${encodeURIComponent(input.recordId)}`);
          await refresh(action.collection);
        } else if (action.kind === 'tool') {
          // The host's tool, through the guard; a list item sends the record it stands for.
          await tools.run(name, action.tool, input.record ?? (input.recordId ? { recordId: input.recordId } : {}), from);
        } else {
          const fn = /^fn:(.+)$/.exec(action.target);
          if (fn) await wire('POST', `${base}/fn/${encodeURIComponent(fn[1]!)}`, { body: input.record ?? {} });
        }
      },
    };
  }, [document, records, base, refresh, tools]);
}
