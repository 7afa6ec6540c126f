import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { importOptional, isMissingPackage, OPTIONAL_PACKAGES } from '../../composition/integrations/optional-package.js';
import { PorterConfigError } from '../../composition/config/load-config.js';

/** What Node throws for `import('<name>')` when the package is not installed. */
function missing(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /srv/app/node_modules/porter-runtime/dist/x.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('importOptional (optional peer packages, loaded at boot)', () => {
  it('names the option and the install command when the package itself is missing', async () => {
    const failure = await importOptional('e2b', 'sandbox', () => Promise.reject(missing('e2b'))).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(PorterConfigError);
    expect((failure as PorterConfigError).issues).to.deep.equal([
      { option: 'sandbox', message: "needs the package e2b, which is not installed: npm install e2b@'^2.51.0'" },
    ]);
  });

  it('passes other failures through: a missing dependency of the package, an error in the module', async () => {
    const transitive = missing('some-dependency-of-e2b');
    expect(await importOptional('e2b', 'sandbox', () => Promise.reject(transitive)).catch((error: unknown) => error)).to.equal(transitive);
    const broken = new SyntaxError('Unexpected token');
    expect(await importOptional('e2b', 'sandbox', () => Promise.reject(broken)).catch((error: unknown) => error)).to.equal(broken);
  });

  it('recognises a subpath of a missing scoped package as that package', () => {
    expect(isMissingPackage(missing('@auth/core'), '@auth/core')).to.equal(true);
    expect(isMissingPackage(missing('@auth/core-extra'), '@auth/core')).to.equal(false);
  });

  it("lists exactly the optional peer dependencies of package.json, with the same ranges (beside porter-runtime/react's own)", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      dependencies: Record<string, string>;
    };
    // porter-runtime/react imports its own two peers; nothing loads them at boot.
    const { react, '@ai-sdk/react': aiSdkReact, ...loadedAtBoot } = manifest.peerDependencies;
    expect([react, aiSdkReact], 'porter-runtime/react peers').to.deep.equal(['^19.0.0', '^4.0.177']);
    expect(loadedAtBoot).to.deep.equal(OPTIONAL_PACKAGES);
    for (const name of [...Object.keys(OPTIONAL_PACKAGES), 'react', '@ai-sdk/react']) {
      expect(manifest.peerDependenciesMeta[name]?.optional, name).to.equal(true);
      expect(manifest.dependencies[name], `${name} is not also a dependency`).to.equal(undefined);
    }
  });
});
