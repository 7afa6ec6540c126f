import { z } from 'zod';
import { defineTool } from '../../application/tools/define-tool.js';

/** A read tool that waits `seconds` (up to `maxSeconds`) and says so: a call that keeps a turn or a session busy for a known time. */
export function sleepTool(maxSeconds: number) {
  return defineTool({
    name: 'sleep',
    description: 'Waits the given number of seconds, then says so.',
    input: z.strictObject({ seconds: z.number().min(0).max(maxSeconds) }),
    risk: 'read',
    execute: async ({ seconds }) => {
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return { slept: seconds };
    },
  });
}
