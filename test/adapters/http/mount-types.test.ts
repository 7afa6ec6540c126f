import { expect } from 'chai';
import Koa from 'koa';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { createPorter } from '../../../composition/create-porter.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { serve } from '../../support/http-server.js';

type IsAny<T> = 0 extends 1 & T ? true : false;

describe("the mounts' public types", () => {
  it("let Koa's own app.use() take porter.koa without a cast, whatever the host's state and context types", async () => {
    const porter = await createPorter(
      {
        store: new MemoryStore({ clock: new ManualClock() }),
        secret: 'a-secret-that-is-long-enough-for-cookies-0123456789',
        logger: 'silent',
      },
      {},
    );
    // These lines are the check: `npm run typecheck` compiles them against @types/koa.
    const notAny: IsAny<typeof porter.koa> = false;
    const asKoaMiddleware: Koa.Middleware = porter.koa;
    const app = new Koa<{ user: string }, { session: { id: string } }>();
    app.use(porter.koa).use((ctx) => {
      ctx.body = { host: ctx.state.user ?? 'nobody', typed: notAny === false && typeof asKoaMiddleware === 'function' };
    });
    const server = await serve(app.callback());
    try {
      expect((await fetch(`${server.url}/api/porter/status`)).status).to.equal(200);
      expect(await (await fetch(`${server.url}/elsewhere`)).json()).to.deep.equal({ host: 'nobody', typed: true });
    } finally {
      await server.close();
      await porter.close();
    }
  });

  it("need no @types/koa: the mount types reach only Node's own declarations", () => {
    const file = fileURLToPath(new URL('../../../adapters/http/wire-mounts.ts', import.meta.url));
    const program = ts.createProgram([file], {
      strict: true,
      target: ts.ScriptTarget.ES2023,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      noEmit: true,
      skipLibCheck: true,
    });
    const reached = program.getSourceFiles().map((source) => source.fileName);
    expect(reached.filter((name) => /node_modules\/(@types\/)?(koa|@koa)[/-]/.test(name))).to.deep.equal([]);
    expect(
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ).to.deep.equal([]);
  });
});
