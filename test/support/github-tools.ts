import type { ToolDefinition } from '../../ports/tool-registry.js';

/**
 * A host tool that makes one GET through the person's GitHub account (`connection: 'github'`) and
 * answers the provider's status with its body under `field`.
 */
function githubRead(
  name: string,
  description: string,
  request: { path: string; query?: Record<string, string> },
  field: 'user' | 'body',
): ToolDefinition {
  return {
    name,
    description,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    risk: 'read',
    connection: 'github',
    async execute(_input, context) {
      const answer = await context.connection!.request({ method: 'GET', ...request });
      return { status: answer.status, [field]: answer.body };
    },
  };
}

export const githubWhoami = githubRead('github_whoami', 'Who the person is on GitHub.', { path: '/user' }, 'user');

export const githubRepos = githubRead(
  'github_repos',
  "List the person's GitHub repositories.",
  { path: '/user/repos', query: { per_page: '5' } },
  'body',
);
