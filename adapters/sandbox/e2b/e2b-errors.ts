import { NotFoundError, SandboxError } from 'e2b';
import { DomainError } from '../../../domain/errors.js';
import { SandboxProviderFailed } from '../sandbox-errors.js';

/** Runs an SDK call; its failures become SandboxProviderFailed (or `notFound` for a 404), ours pass through. */
export async function e2bCall<T>(call: () => Promise<T>, notFound?: () => Error): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (notFound && error instanceof NotFoundError) throw notFound();
    if (error instanceof SandboxError || error instanceof Error) throw new SandboxProviderFailed('e2b', error.message);
    throw error;
  }
}
