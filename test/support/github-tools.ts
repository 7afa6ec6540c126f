import type { ToolDefinition } from '../../ports/tool-registry.js';

/** A host tool that acts through the person's GitHub account (`connection: 'github'`). */
export const githubWhoami: ToolDefinition = {
  name: 'github_whoami',
  description: 'Who the person is on GitHub.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  risk: 'read',
  connection: 'github',
  async execute(_input, context) {
    const answer = await context.connection!.request({ method: 'GET', path: '/user' });
    return { status: answer.status, user: answer.body };
  },
};
